import { Video } from "~/components/icons";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";

/**
 * "Rejoindre" / "Démarrer": a POST (it records attendance) that the server answers with a redirect
 * to the room, opened in a new tab. Closed, it says when it opens.
 */
export function JoinButton({
  sessionId,
  title,
  open,
  label = "Rejoindre",
  size = "sm",
}: {
  sessionId: number;
  title: string;
  open: boolean;
  label?: string;
  size?: "sm" | "md";
}) {
  if (!open) {
    return (
      <Button size={size} variant="outline" disabled title="La salle ouvre 10 minutes avant le début">
        <Video aria-hidden="true" className="size-4" />
        {label}
        <span className="sr-only"> (la salle ouvre 10 minutes avant le début de « {title} »)</span>
      </Button>
    );
  }
  return (
    <Form method="post" action={`/dashboard/sessions/${sessionId}/rejoindre`} target="_blank" reloadDocument>
      <Button type="submit" size={size}>
        <Video aria-hidden="true" className="size-4" />
        {label}
        <span className="sr-only"> « {title} » (s'ouvre dans un nouvel onglet)</span>
      </Button>
    </Form>
  );
}
