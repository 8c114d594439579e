import { Heart } from "~/components/icons";
import { useFetcher } from "react-router";
import { cx } from "~/components/ui/control";
import { plural } from "~/lib/format";

/**
 * "J'aime" as a form (one like per person; pressing again takes it back). With JavaScript the
 * count changes at once, without a page load.
 */
export function LikeButton({ threadId, liked, count, action }: { threadId: number; liked: boolean; count: number; action: string }) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get("intent") === "like";
  const shownLiked = pending ? !liked : liked;
  const shownCount = pending ? count + (liked ? -1 : 1) : count;
  return (
    <fetcher.Form method="post" action={action}>
      <input type="hidden" name="intent" value="like" />
      <input type="hidden" name="threadId" value={threadId} />
      <button
        type="submit"
        aria-pressed={shownLiked}
        className={cx(
          "inline-flex min-h-9 items-center gap-1.5 rounded-md px-2 text-sm font-medium whitespace-nowrap hover:bg-slate-100",
          shownLiked ? "text-red-700" : "text-slate-700",
        )}
      >
        <Heart aria-hidden="true" className={cx("size-4", shownLiked && "fill-current")} />
        <span>{plural(shownCount, "J'aime", "J'aime")}</span>
        <span className="sr-only">{shownLiked ? " (vous aimez ce sujet)" : ""}</span>
      </button>
    </fetcher.Form>
  );
}
