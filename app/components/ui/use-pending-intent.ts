import { useNavigation } from "react-router";

/**
 * Whether the form posting `intent` is being sent (its button shows "Envoi..." and is disabled
 * meanwhile). On pages with several forms each posts an `intent`; `fields` narrows it to one row
 * (`{ userId }` for the row whose role is changing).
 *
 *   const saving = usePendingIntent("profile");
 */
export function usePendingIntent(intent: string, fields: Record<string, string> = {}): boolean {
  const { state, formData } = useNavigation();
  if (state === "idle" || !formData || formData.get("intent") !== intent) return false;
  return Object.entries(fields).every(([name, value]) => formData.get(name) === value);
}
