import { Link } from "react-router";
import { cx } from "./control";
import { buttonClasses } from "./button";

/**
 * « Page précédente » / « Page n sur N » / « Page suivante » under a paged list, as plain links (no
 * JavaScript needed); nothing when one page holds it all.
 */
export function Pager({
  page,
  pageCount,
  hrefFor,
  label,
  previousText = "Page précédente",
  nextText = "Page suivante",
  className,
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
  /** The navigation's accessible name (« Pages du forum »…). */
  label: string;
  /** The links' texts, for lists that are not pages of a screen (« Réponses suivantes »…). */
  previousText?: string;
  nextText?: string;
  className?: string;
}) {
  if (pageCount <= 1) return null;
  const link = (to: number, text: string) => (
    <Link to={hrefFor(to)} className={buttonClasses({ variant: "outline", size: "sm" })}>
      {text}
    </Link>
  );
  return (
    <nav aria-label={label} className={cx("flex items-center justify-between gap-3 text-sm", className)}>
      {page > 1 ? link(page - 1, previousText) : <span />}
      <span className="text-slate-600">
        Page {page} sur {pageCount}
      </span>
      {page < pageCount ? link(page + 1, nextText) : <span />}
    </nav>
  );
}
