import type { AddressInfo } from "node:net";
import http from "node:http";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressWholePages, pageEncoding } from "./whole-page-compression";

/** A page of `size` bytes of HTML, varied enough not to compress to nothing. */
function pageOf(size: number): string {
  let html = "<!doctype html><html><body>";
  for (let row = 0; html.length < size; row++) html += `<p data-row="${row}">Formation ${row * 7919} : ${(row * 104729).toString(36)}</p>`;
  return `${html}</body></html>`;
}
const small = pageOf(40_000);
const large = pageOf(600_000);

let server: http.Server;
let base: string;

beforeAll(async () => {
  const app = express();
  // Pages on the event loop under /boucle, on the thread pool elsewhere.
  const [onLoop, onPool] = [compressWholePages({ onEventLoop: true }), compressWholePages({ onEventLoop: false })];
  app.use((req, res, next) => (req.path.startsWith("/boucle/") ? onLoop : onPool)(req, res, next));
  app.get("/fichier.txt", (_req, res) => void res.type("text/plain").send(small));
  // Written in pieces, as React's stream writer does.
  app.get(["/:size", "/boucle/:size"], (req, res) => {
    const page = req.params.size === "grande" ? large : small;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    for (let at = 0; at < page.length; at += 16_384) res.write(page.slice(at, at + 16_384));
    res.end();
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The raw response, undecoded (fetch would decode it). */
function get(path: string, acceptEncoding: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("whole-page compression", () => {
  it("prefers brotli whenever the browser takes it, whatever the order", () => {
    expect(pageEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pageEncoding("gzip, deflate")).toBe("gzip");
    expect(pageEncoding("identity")).toBe("identity");
    expect(pageEncoding(undefined)).toBe("identity");
  });

  it("sends small and large pages whole, with their length, decoding to the page, on the event loop or the pool", async () => {
    for (const [path, page] of [
      ["/petite", small],
      ["/grande", large],
      ["/boucle/petite", small],
      ["/boucle/grande", large],
    ] as const) {
      const br = await get(path, "gzip, deflate, br, zstd");
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["transfer-encoding"]).toBeUndefined();
      expect(Number(br.headers["content-length"])).toBe(br.body.length);
      expect(br.body.length).toBeLessThan(page.length / 3);
      expect(zlib.brotliDecompressSync(br.body).toString()).toBe(page);

      const gzip = await get(path, "gzip");
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(Number(gzip.headers["content-length"])).toBe(gzip.body.length);
      expect(zlib.gunzipSync(gzip.body).toString()).toBe(page);
    }
  });

  it("leaves what is not HTML, and clients that ask for no encoding, alone", async () => {
    const text = await get("/fichier.txt", "br");
    expect(text.headers["content-encoding"]).toBeUndefined();
    expect(text.body.toString()).toBe(small);
    const plain = await get("/petite", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(small);
  });
});
