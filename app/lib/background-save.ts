/**
 * The fields of a save a page sends in the background as the learner works (a quiz answer, sent
 * as soon as it is chosen). It changes nothing on the page or around it: neither the page's loader
 * nor its layout's run again after it, which would be a second request for every answer.
 */
export const BACKGROUND_SAVE = { intent: "save", js: "1" } as const;

export function isBackgroundSave(formData: FormData | undefined): boolean {
  return formData?.get("intent") === BACKGROUND_SAVE.intent && formData.get("js") === BACKGROUND_SAVE.js;
}
