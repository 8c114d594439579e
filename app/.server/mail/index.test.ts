import { expect, test } from "vitest";
import { extractLinks } from "./index";

test("the log's links of a kept mail stop before the sentence's punctuation, and come once", () => {
  const text =
    "Vérifiez-le sur http://campus.test/certificats/ICEF-AB12-CD34. Votre espace : http://campus.test/dashboard?onglet=a, " +
    "puis http://campus.test/dashboard?onglet=a ! Et (http://campus.test/aide).";
  expect(extractLinks(text)).toEqual([
    "http://campus.test/certificats/ICEF-AB12-CD34",
    "http://campus.test/dashboard?onglet=a",
    "http://campus.test/aide",
  ]);
});
