/** A teacher's settings: bio and payout details, who may read them (finance reads them for commissions). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { getEmailPreferences } from "~/.server/notifications";
import { deleteUnattachedFiles } from "~/.server/files/maintenance";
import { getReadableFile } from "~/.server/learning";
import { listCourseContent } from "~/.server/courses/content";
import { createDiskStorage } from "~/.server/storage/disk";
import { getPayoutDetails, getPublicTeacherProfile, getTeacherProfile, listPayoutDetails, saveTeacherProfile } from "~/.server/teaching";
import { action as settingsAction, loader as settingsLoader } from "~/routes/teacher/settings";
import { createStoredFile, createUser, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeOutcome, sessionOf } from "../setup/routes";

let handle: DatabaseHandle;
let teacher: TestUser;
let other: TestUser;
let admin: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  teacher = await createUser(handle.db, { role: "teacher" });
  other = await createUser(handle.db, { role: "teacher" });
  admin = await createUser(handle.db, { role: "admin" });
});
afterAll(async () => handle?.close());

describe("teacher settings", () => {
  it("saves a bio and a mobile-money number, read back in E.164, by the teacher and an admin only", async () => {
    await saveTeacherProfile(handle.db, teacher, {
      bio: "Ingénieur réseau, 10 ans d'expérience.",
      payoutMethod: "mobile_money",
      mobileMoneyOperator: "orange_money",
      mobileMoneyNumber: "76 12 34 56",
    });
    expect(await getTeacherProfile(handle.db, teacher)).toMatchObject({
      bio: "Ingénieur réseau, 10 ans d'expérience.",
      payout: { method: "mobile_money", operator: "orange_money", number: "+22376123456" },
    });
    expect(await getPayoutDetails(handle.db, admin, teacher.id)).toMatchObject({ method: "mobile_money", number: "+22376123456" });
    await expect(getPayoutDetails(handle.db, other, teacher.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(saveTeacherProfile(handle.db, other, { bio: "pirate" }, new Date(), teacher.id)).rejects.toMatchObject({
      code: "not_found",
    });
    expect([...(await listPayoutDetails(handle.db, admin, [teacher.id, other.id])).keys()]).toEqual([teacher.id]);
    await expect(listPayoutDetails(handle.db, teacher, [teacher.id])).rejects.toMatchObject({ code: "forbidden" });
  });

  it("switches to bank details (the mobile-money fields are cleared) and refuses incomplete ones with a message per field", async () => {
    await expect(saveTeacherProfile(handle.db, teacher, { payoutMethod: "bank", bankName: "BDM" })).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { bankAccountHolder: expect.any(String), bankAccountNumber: expect.any(String) },
    });
    await expect(saveTeacherProfile(handle.db, teacher, { payoutMethod: "mobile_money", mobileMoneyNumber: "" })).rejects.toMatchObject({
      fieldErrors: { mobileMoneyOperator: expect.any(String), mobileMoneyNumber: expect.any(String) },
    });
    await saveTeacherProfile(handle.db, teacher, {
      payoutMethod: "bank",
      bankName: "Banque de Développement du Mali",
      bankAccountHolder: "Seydou Traoré",
      bankAccountNumber: "ml04 3010 1000 0123 4567 8901 23",
    });
    expect(await getPayoutDetails(handle.db, teacher, teacher.id)).toMatchObject({
      method: "bank",
      accountNumber: "ML043010100001234567890123",
    });
  });
});

describe("/teacher/settings", () => {
  function call(run: (args: never) => Promise<unknown>, user: TestUser, form?: URLSearchParams) {
    const request = new Request(`${TEST_PUBLIC_URL}/teacher/settings`, form ? { method: "POST", body: form } : {});
    const context = routerContext(handle.db, createTestAuth(handle.db), { user: sessionOf(user) });
    return routeOutcome(() => run({ request, params: {}, context } as never));
  }

  it("saves the bio and payout details, keeps what was typed when refused, and shows the bio on course pages", async () => {
    const teacher = await createUser(handle.db, { role: "teacher", firstName: "Seydou", lastName: "Traoré" });
    const refused = await call(
      settingsAction,
      teacher,
      new URLSearchParams({ intent: "profile", bio: "Bonjour", payoutMethod: "mobile_money", mobileMoneyNumber: "" }),
    );
    expect(refused).toMatchObject({
      status: 400,
      data: { values: { bio: "Bonjour" }, fieldErrors: { mobileMoneyOperator: "Choisissez l'opérateur." } },
    });
    const saved = await call(
      settingsAction,
      teacher,
      new URLSearchParams({
        intent: "profile",
        bio: "Formateur en énergie solaire.",
        payoutMethod: "mobile_money",
        mobileMoneyOperator: "wave",
        mobileMoneyNumber: "+223 76 00 11 22",
      }),
    );
    expect(saved).toMatchObject({ status: 303, location: "/teacher/settings" });
    expect((await call(settingsLoader, teacher)).data).toMatchObject({
      values: {
        bio: "Formateur en énergie solaire.",
        payoutMethod: "mobile_money",
        mobileMoneyOperator: "wave",
        mobileMoneyNumber: "+22376001122",
      },
    });
    expect(await getPublicTeacherProfile(handle.db, teacher.id)).toEqual({
      name: "Seydou Traoré",
      bio: "Formateur en énergie solaire.",
      photoFileId: null,
    });
  });

  it("saves the e-mail choices: an unticked kind is switched off", async () => {
    const teacher = await createUser(handle.db, { role: "teacher" });
    const form = new URLSearchParams({ intent: "notifications" });
    form.append("email", "session_starting");
    await call(settingsAction, teacher, form);
    const preferences = await getEmailPreferences(handle.db, teacher);
    expect(preferences.session_starting).toBe(true);
    expect(preferences.session_scheduled).toBe(false);
  });
});

describe("the teacher's photo", () => {
  const storage = createDiskStorage(fs.mkdtempSync(path.join(os.tmpdir(), "campus-photo-")));
  const photoOf = async (teacher: TestUser) => (await getPublicTeacherProfile(handle.db, teacher.id))?.photoFileId;
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);
  const call = (user: TestUser, fields: Record<string, string>) => {
    const request = new Request(`${TEST_PUBLIC_URL}/teacher/settings`, { method: "POST", body: form(fields) });
    const context = routerContext(handle.db, createTestAuth(handle.db), { user: sessionOf(user) });
    return routeOutcome(() => settingsAction({ request, params: {}, context } as never));
  };

  it("takes the teacher's own uploaded image, shows it to anyone, and keeps it from the maintenance job", async () => {
    const teacher = await createUser(handle.db, { role: "teacher" });
    const image = await createStoredFile(handle.db, storage, teacher, { purpose: "thumbnail" });
    expect(await call(teacher, { intent: "photo", photoFileId: image.id })).toMatchObject({ status: 303, location: "/teacher/settings" });
    expect(await photoOf(teacher)).toBe(image.id);
    // Public on the course pages: a visitor may read it, as a course cover.
    expect((await getReadableFile(handle.db, null, image.id)).visibility).toBe("public");
    // Older than the retention of unattached uploads, yet kept: it is in use.
    await deleteUnattachedFiles(handle.db, storage, new Date(Date.now() + 48 * 3600_000));
    expect((await getReadableFile(handle.db, null, image.id)).file.id).toBe(image.id);

    // A new photo releases the old one to the maintenance job; "Retirer" releases the new one.
    const second = await createStoredFile(handle.db, storage, teacher, { purpose: "thumbnail" });
    await call(teacher, { intent: "photo", photoFileId: second.id });
    expect(await photoOf(teacher)).toBe(second.id);
    await expect(getReadableFile(handle.db, null, image.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await call(teacher, { intent: "remove-photo" })).toMatchObject({ status: 303 });
    expect(await photoOf(teacher)).toBeNull();
    await deleteUnattachedFiles(handle.db, storage, new Date(Date.now() + 48 * 3600_000));
    await expect(getReadableFile(handle.db, teacher, second.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses someone else's upload, a document and an unknown id, beside the field", async () => {
    const teacher = await createUser(handle.db, { role: "teacher" });
    const stranger = await createUser(handle.db, { role: "teacher" });
    const theirs = await createStoredFile(handle.db, storage, stranger, { purpose: "thumbnail" });
    const document = await createStoredFile(handle.db, storage, teacher, { purpose: "lesson_attachment" });
    for (const [photoFileId, message] of [
      [theirs.id, "Cette image n'est plus disponible : envoyez-la de nouveau."],
      ["inconnu", "Cette image n'est plus disponible : envoyez-la de nouveau."],
      [document.id, "La photo doit être une image JPEG, PNG ou WebP."],
    ] as const) {
      const refused = await call(teacher, { intent: "photo", photoFileId });
      expect(refused, photoFileId).toMatchObject({ status: 400, data: { fieldErrors: { photoFileId: message } } });
    }
    expect(await photoOf(teacher)).toBeNull();
    // Nor may the photo be taken by a course form or the content screen as an unattached upload.
    const photo = await createStoredFile(handle.db, storage, teacher, { purpose: "thumbnail" });
    await call(teacher, { intent: "photo", photoFileId: photo.id });
    const content = await listCourseContent(handle.db, teacher, { course: null, kind: null });
    expect(JSON.stringify(content)).not.toContain(photo.id);
  });
});
