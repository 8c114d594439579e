import { Share2 } from "~/components/icons";
import { toast } from "sonner";
import { buttonClasses } from "~/components/ui/button";

/**
 * "Partager": the browser's share sheet where there is one (phones), otherwise the link copied
 * ("Lien copié"). Without JavaScript it is a plain link to the public verification page.
 */
export function ShareButton({ url, title }: { url: string; title: string }) {
  return (
    <a
      href={url}
      className={buttonClasses({ variant: "outline", size: "sm" })}
      onClick={async (event) => {
        event.preventDefault();
        if (typeof navigator.share === "function") {
          try {
            await navigator.share({ title, text: title, url });
            return;
          } catch (error) {
            // Closed by the learner: nothing to do. Refused by the browser: fall back to copying.
            if (error instanceof DOMException && error.name === "AbortError") return;
          }
        }
        try {
          await navigator.clipboard.writeText(url);
          toast.success("Lien copié", { description: "Le lien de vérification est dans le presse-papiers." });
        } catch {
          window.location.assign(url);
        }
      }}
    >
      <Share2 aria-hidden="true" className="size-4" />
      Partager<span className="sr-only"> le certificat {title}</span>
    </a>
  );
}
