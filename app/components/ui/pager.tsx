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
  className,
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
  /** The navigation's accessible name (« Pages du forum »…). */
  label: string;
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
      {page > 1 ? link(page - 1, "Page précédente") : <span />}
      <span className="text-slate-600">
        Page {page} sur {pageCount}
      </span>
      {page < pageCount ? link(page + 1, "Page suivante") : <span />}
    </nav>
  );
}
