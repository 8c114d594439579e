import { expect, test } from "vitest";
import { escapeHtml, ofInstitute, passwordResetMail, verificationMail } from "./templates";

const identity = { name: "Institut Consulaire d'Études et de Formation", shortName: "ICEF", email: "contact@icef.ml" };

test("French elision of the institute's name", () => {
  expect(ofInstitute("Institut Consulaire")).toBe("de l'Institut Consulaire");
  expect(ofInstitute("École de Bamako")).toBe("de l'École de Bamako");
  expect(ofInstitute("Campus")).toBe("de Campus");
});

test("mails carry the link in HTML and text, and escape what they insert", () => {
  const mail = verificationMail({
    to: "a@example.ml",
    firstName: "<Awa>",
    url: "http://campus.test/auth/verification?token=a&b",
    identity,
  });
  expect(mail.text).toContain("Bonjour <Awa>,");
  expect(mail.text).toContain("http://campus.test/auth/verification?token=a&b");
  expect(mail.html).toContain("Bonjour &lt;Awa&gt;,");
  expect(mail.html).toContain('href="http://campus.test/auth/verification?token=a&amp;b"');
  expect(mail.html).toContain('lang="fr"');
  expect(mail.text).toContain("site de l'Institut Consulaire d'Études et de Formation");
  const reset = passwordResetMail({ to: "a@example.ml", url: "http://campus.test/x", identity });
  expect(reset.subject).toBe("Réinitialisation de votre mot de passe – ICEF");
  expect(reset.text.startsWith("Bonjour,")).toBe(true);
  expect(escapeHtml(`"'&<>`)).toBe("&quot;&#39;&amp;&lt;&gt;");
});
