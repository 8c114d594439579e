import type { MouseEvent } from "react";
import { Button, type ButtonProps } from "~/components/ui/button";
import { editIntentValue, type EditIntent } from "~/lib/course-form";

/**
 * An editing button of the course form (add, remove, move): without JavaScript it submits the form
 * with its intent and the server sends the form back changed, nothing saved; with JavaScript the
 * same change happens in the page.
 */
export function IntentButton({
  intent,
  onIntent,
  ...props
}: Omit<ButtonProps, "type" | "name" | "value" | "onClick"> & { intent: EditIntent; onIntent: (intent: EditIntent) => void }) {
  return (
    <Button
      {...props}
      type="submit"
      name="intent"
      value={editIntentValue(intent)}
      formNoValidate
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        event.preventDefault();
        onIntent(intent);
      }}
    />
  );
}
