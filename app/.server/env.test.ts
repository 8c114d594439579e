import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "./env";

function failure(source: Record<string, string>) {
  try {
    loadEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("loadEnv accepted a bad environment");
}

describe("loadEnv", () => {
  it("gives working defaults for an empty environment", () => {
    expect(loadEnv({})).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      HOST: "0.0.0.0",
      DATA_DIR: "./data",
      PUBLIC_URL: "http://localhost:3000",
      TRUST_PROXY: false,
      PAGE_CACHE_SECONDS: 5,
      LOG_LEVEL: "info",
    });
  });

  it("makes a trial unless the operator declared a deployment (CAMPUS_MODE, or NODE_ENV=production)", () => {
    expect(loadEnv({})).toMatchObject({ CAMPUS_MODE: "trial", PAYMENT_SANDBOX: true });
    expect(loadEnv({ NODE_ENV: "production" })).toMatchObject({ CAMPUS_MODE: "production", PAYMENT_SANDBOX: false });
    expect(loadEnv({ NODE_ENV: "production", CAMPUS_MODE: "trial" })).toMatchObject({ CAMPUS_MODE: "trial", PAYMENT_SANDBOX: true });
    expect(loadEnv({ CAMPUS_MODE: "production" })).toMatchObject({ CAMPUS_MODE: "production", PAYMENT_SANDBOX: false });
    expect(failure({ CAMPUS_MODE: "essai" })).toContain('CAMPUS_MODE = "essai" : doit valoir trial (essai) ou production');
  });

  it("treats empty variables as unset, and derives PUBLIC_URL from PORT", () => {
    const env = loadEnv({ PORT: "8080", DATABASE_URL: "", PUBLIC_URL: "" });
    expect(env.PORT).toBe(8080);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PUBLIC_URL).toBe("http://localhost:8080");
  });

  it("drops the trailing slash of PUBLIC_URL", () => {
    expect(loadEnv({ PUBLIC_URL: "https://campus.example.ml/" }).PUBLIC_URL).toBe("https://campus.example.ml");
  });

  it.each([
    ["abc", 'PORT = "abc" : doit être un nombre entier entre 1 et 65535.'],
    ["0", 'PORT = "0"'],
    ["70000", 'PORT = "70000"'],
    ["30.5", 'PORT = "30.5"'],
  ])("names a bad PORT %s and says why", (value, expected) => {
    const message = failure({ PORT: value });
    expect(message).toMatch(/^Configuration invalide/);
    expect(message).toContain(expected);
  });

  it("lists every bad variable at once", () => {
    const message = failure({ NODE_ENV: "prod", LOG_LEVEL: "debug", PUBLIC_URL: "ftp://x", TRUST_PROXY: "yes" });
    expect(message).toContain('NODE_ENV = "prod" : doit valoir production, development ou test');
    expect(message).toContain('LOG_LEVEL = "debug"');
    expect(message).toContain('PUBLIC_URL = "ftp://x" : doit être une adresse http:// ou https://');
    expect(message).toContain('TRUST_PROXY = "yes"');
  });

  it("never repeats a database password", () => {
    const message = failure({ DATABASE_URL: "mysql://campus:s3cr3t@db/campus" });
    expect(message).toContain('DATABASE_URL = "mysql://campus:***@db/campus" : doit commencer par postgres://');
    expect(message).not.toContain("s3cr3t");
  });

  it("reads PAGE_CACHE_SECONDS, 0 turning the cache off, and refuses a negative one", () => {
    expect(loadEnv({ PAGE_CACHE_SECONDS: "0" }).PAGE_CACHE_SECONDS).toBe(0);
    expect(failure({ PAGE_CACHE_SECONDS: "-1" })).toContain('PAGE_CACHE_SECONDS = "-1" : doit être un nombre entier de secondes');
  });

  it.each([
    ["false", false],
    ["0", false],
    ["true", 1],
    ["2", 2],
    ["loopback", "loopback"],
    ["loopback, 10.0.0.0/8", "loopback, 10.0.0.0/8"],
  ])("reads TRUST_PROXY=%s as %s", (value, expected) => {
    expect(loadEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });
});
