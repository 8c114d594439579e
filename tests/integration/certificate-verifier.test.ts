/**
 * Certificates checked as an outside verifier would, with independent code: jose's remote JWKS
 * (fetched over HTTP from the issuer's published key set, the key chosen by the JWT header's kid),
 * 1EdTech's JSON Schema for AchievementCredential (ajv), the BitstringStatusList decoded by hand
 * before and after a revocation, and the badge PNG read chunk by chunk (and decoded by libpng). The published documents are
 * the route modules served by a real HTTP listener.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import Ajv2019 from "ajv/dist/2019";
import addFormats from "ajv-formats";
import { createRemoteJWKSet, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from "jose";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import { getCertificateBadgePng, issueCertificateIfComplete, revokeCertificate, type Certificates } from "~/.server/certificates";
import type { DatabaseHandle } from "~/.server/db/client";
import { createRouterContext } from "~/.server/http/router-context";
import { setLessonDone } from "~/.server/learning";
import { loader as attestationLoader } from "~/routes/public/certificat-attestation";
import { loader as publishedLoader } from "~/routes/public/certificats-publics";
import { createCourse, createQuiz, createUser, enrol, rightAnswers, takeQuiz, type TestUser } from "../factories";
import { createTestAuth, testEnv } from "../setup/auth";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let campus: CampusAuth;
let server: http.Server;
let services: Certificates;
let teacher: TestUser;
let admin: TestUser;

/** The issuer's public documents over HTTP, as the route table maps them (certificats/…). */
async function serve(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = new URL(request.url!, services.publicUrl);
  const [, document, rest] = url.pathname.split("/").filter(Boolean);
  const context = createRouterContext(
    { db: handle.db, env: testEnv(), auth: campus.auth, certificates: services },
    { clientIp: "198.51.100.30", session: null },
  );
  const args = (params: Record<string, string>) => ({ request: new Request(url), params, context, url, pattern: url.pathname }) as never;
  const answer: Response = rest?.startsWith("attestation.")
    ? await attestationLoader(args({ code: document! }))
    : await publishedLoader(args(document === "cles" && rest ? { kid: rest } : {}));
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  server = http.createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  services = { publicUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, secret: "un secret de test pour le vérificateur" };
  teacher = await createUser(handle.db, { role: "teacher" });
  admin = await createUser(handle.db, { role: "admin" });
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await handle?.close();
});

/** A learner who passed a course: their certificate is issued (score 100 %, grade Excellent). */
async function certified() {
  const { course, lessons } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: [{ durationMinutes: 60 }] });
  const quiz = await createQuiz(handle.db, teacher, course, { required: true });
  const learner = await createUser(handle.db, { firstName: "Hawa", lastName: "Diarra" });
  await enrol(handle.db, learner, course);
  for (const lesson of lessons) await setLessonDone(handle.db, learner, lesson.id, true);
  await takeQuiz(handle.db, learner, course, quiz, rightAnswers());
  const certificate = (await issueCertificateIfComplete(handle.db, services, { userId: learner.id, courseId: course.id }))!;
  return { course, learner, certificate };
}

const getJson = async (url: string) => {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

describe("an independent verifier", () => {
  it("finds the signing key in the issuer's JWKS by the header's kid, which also dereferences to it and is listed in the profile", async () => {
    const { certificate } = await certified();
    const jwks = createRemoteJWKSet(new URL(`${services.publicUrl}/certificats/cles`));
    const { payload, protectedHeader } = await jwtVerify(certificate.credential, jwks, {
      issuer: `${services.publicUrl}/certificats/emetteur`,
      algorithms: ["EdDSA"],
    });
    expect(payload.jti).toBe(`urn:uuid:${certificate.id}`);

    // The kid is a URL that answers the same key, under the same kid.
    const kid = String(protectedHeader.kid);
    const dereferenced = (await getJson(kid)) as JWK;
    expect(dereferenced).toMatchObject({ kid, kty: "OKP", crv: "Ed25519" });
    expect(dereferenced).not.toHaveProperty("d");
    await jwtVerify(certificate.credential, await importJWK(dereferenced, "EdDSA"));

    // The issuer's profile lists the key as a verification method of its own.
    const profile = await getJson(`${services.publicUrl}/certificats/emetteur`);
    expect(profile.verificationMethod).toEqual([
      expect.objectContaining({ id: kid, type: "JsonWebKey", controller: profile.id, publicKeyJwk: dereferenced }),
    ]);
    expect(profile.assertionMethod).toEqual([kid]);
  });

  it("reads the public credential, valid against 1EdTech's AchievementCredential schema, with a structured result and a hashed e-mail", async () => {
    const { certificate, learner, course } = await certified();
    const credential = await getJson(`${services.publicUrl}/certificats/${certificate.code}/attestation.json`);

    const schema = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/openbadges-3.0-achievementcredential-schema.json"), "utf8"),
    ) as object;
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(credential), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(validate({ ...credential, issuer: undefined })).toBe(false); // the schema does bite
    // The signed one (attestation.jwt) carries the same credential.
    const jws = await (await fetch(`${services.publicUrl}/certificats/${certificate.code}/attestation.jwt`)).text();
    expect(jws).toBe(certificate.credential);

    type Subject = {
      identifier: Array<Record<string, unknown>>;
      result: Array<{ resultDescription: string; value: string }>;
      achievement: { name: string; resultDescription: Array<Record<string, unknown>> };
    };
    const subject = credential.credentialSubject as Subject;
    expect(subject.achievement.name).toBe(course.title);
    const percent = subject.achievement.resultDescription.find((description) => description.resultType === "Percent")!;
    expect(percent).toMatchObject({ type: ["ResultDescription"], valueMin: "0", valueMax: "100" });
    expect(subject.result).toContainEqual(expect.objectContaining({ resultDescription: percent.id, value: "100" }));
    const grade = subject.achievement.resultDescription.find((description) => description.resultType === "LetterGrade")!;
    expect(subject.result).toContainEqual(expect.objectContaining({ resultDescription: grade.id, value: "Excellent" }));
    expect(JSON.stringify(subject)).not.toContain("Score :");

    // The holder: the name, and the e-mail hashed with a salt (never in clear).
    expect(subject.identifier).toContainEqual(
      expect.objectContaining({ identityType: "name", hashed: false, identityHash: "Hawa Diarra" }),
    );
    const email = subject.identifier.find((identity) => identity.identityType === "emailAddress")!;
    expect(email).toMatchObject({ type: "IdentityObject", hashed: true });
    expect(String(email.salt).length).toBeGreaterThanOrEqual(16);
    const expected = createHash("sha256")
      .update(`${learner.email.toLowerCase()}${String(email.salt)}`)
      .digest("hex");
    expect(email.identityHash).toBe(`sha256$${expected}`);
    expect(JSON.stringify(credential)).not.toContain(learner.email);
  });

  it("reads the revocation in the published status list: the certificate's bit is 0, then 1", async () => {
    const { certificate } = await certified();
    const jwks = createRemoteJWKSet(new URL(`${services.publicUrl}/certificats/cles`));
    const { payload } = await jwtVerify(certificate.credential, jwks);
    const entry = payload.credentialStatus as { statusListCredential: string; statusListIndex: string; statusPurpose: string };
    expect(entry.statusPurpose).toBe("revocation");
    const bitNow = async () => {
      const list = await (await fetch(entry.statusListCredential)).text();
      const { payload: statusList } = await jwtVerify(list, jwks);
      const encoded = String((statusList.credentialSubject as { encodedList: string }).encodedList);
      // Multibase base64url ("u" prefix) of the GZIP'd bitstring; bit 0 is the leftmost of byte 0.
      const bits = gunzipSync(Buffer.from(encoded.slice(1), "base64url"));
      const index = Number(entry.statusListIndex);
      return (bits[Math.floor(index / 8)]! >> (7 - (index % 8))) & 1;
    };
    expect(await bitNow()).toBe(0);
    await revokeCertificate(handle.db, admin, certificate.id, "Erreur de saisie de l'institut");
    expect(await bitNow()).toBe(1);
  });

  it("finds the signed credential baked in the badge PNG, which still decodes as an image", async () => {
    const { certificate, learner } = await certified();
    const { png, filename } = await getCertificateBadgePng(handle.db, learner, certificate.code);
    expect(filename).toBe(`badge-${certificate.code}.png`);
    // libpng (through sharp) decodes every pixel: the chunk did not break the image.
    const { info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([600, 600]);

    // The chunks, read by hand: one iTXt "openbadgecredential", uncompressed, holding the VC-JWT.
    const baked: string[] = [];
    for (let offset = 8; offset < png.length;) {
      const length = png.readUInt32BE(offset);
      const type = png.toString("latin1", offset + 4, offset + 8);
      const data = png.subarray(offset + 8, offset + 8 + length);
      if (type === "iTXt") {
        const keywordEnd = data.indexOf(0);
        if (data.toString("latin1", 0, keywordEnd) === "openbadgecredential") {
          expect(data[keywordEnd + 1]).toBe(0); // not compressed
          const languageEnd = data.indexOf(0, keywordEnd + 3);
          const translatedEnd = data.indexOf(0, languageEnd + 1);
          baked.push(data.subarray(translatedEnd + 1).toString("utf8"));
        }
      }
      offset += 12 + length;
    }
    expect(baked).toEqual([certificate.credential]);
    expect(decodeProtectedHeader(baked[0]!).alg).toBe("EdDSA");
    await jwtVerify(baked[0]!, createRemoteJWKSet(new URL(`${services.publicUrl}/certificats/cles`)));
  });
});
