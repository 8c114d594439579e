import { describe, expect, it } from "vitest";
import { createToastHeaders, getToast, redirectWithToast } from "~/.server/toast";
import { cookieFrom } from "../setup/auth";

describe("toast cookie", () => {
  it("round-trips through a redirect, then clears itself", async () => {
    const response = await redirectWithToast("/dashboard/profile", {
      type: "success",
      title: "Succès",
      description: "Profil mis à jour avec succès",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/profile");
    const setCookie = response.headers.get("Set-Cookie")!;
    expect(setCookie).toMatch(/^campus_toast=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const request = new Request("http://localhost/dashboard/profile", { headers: { Cookie: cookieFrom([setCookie]) } });
    const { toast, headers } = await getToast(request);
    expect(toast).toMatchObject({ type: "success", title: "Succès", description: "Profil mis à jour avec succès" });
    expect(toast!.id).toMatch(/\S+/);
    // The answer clears the cookie, so the toast is shown once.
    expect(headers!.get("Set-Cookie")).toMatch(/campus_toast=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
  });

  it("keeps other headers given to redirectWithToast (a new session cookie)", async () => {
    const response = await redirectWithToast(
      "/dashboard/profile?onglet=securite",
      { type: "success", title: "Mot de passe modifié" },
      { headers: { "Set-Cookie": "campus.session_token=abc; Path=/; HttpOnly" } },
    );
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies.some((cookie) => cookie.startsWith("campus.session_token=abc"))).toBe(true);
    expect(cookies.some((cookie) => cookie.startsWith("campus_toast="))).toBe(true);
  });

  it("ignores a missing, tampered or unsigned cookie", async () => {
    expect(await getToast(new Request("http://localhost/"))).toEqual({ toast: null, headers: null });
    const headers = await createToastHeaders({ type: "error", title: "Erreur", description: "Impossible de mettre à jour le profil" });
    const cookie = cookieFrom([headers.get("Set-Cookie")!]);
    const [name, value] = cookie.split("=") as [string, string];
    const tampered = `${name}=${value.slice(0, -3)}${value.slice(-3) === "abc" ? "xyz" : "abc"}`;
    expect((await getToast(new Request("http://localhost/", { headers: { Cookie: tampered } }))).toast).toBeNull();
    const forged = `${name}=${Buffer.from(JSON.stringify({ __flash_toast__: { id: "x", type: "success", title: "Faux" } })).toString("base64")}`;
    expect((await getToast(new Request("http://localhost/", { headers: { Cookie: forged } }))).toast).toBeNull();
  });

  it("refuses an invalid toast", async () => {
    await expect(createToastHeaders({ type: "success", title: "" })).rejects.toThrow();
  });
});
