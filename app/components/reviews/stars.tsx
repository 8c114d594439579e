import { Icon } from "~/components/public/icon";
import { formatNumber } from "~/lib/format";

/** A rating drawn as five stars, read as "4 sur 5" or "4,9 sur 5" (the stars themselves are decorative). */
export function Stars({ rating, className = "size-4" }: { rating: number; className?: string }) {
  return (
    <span className="inline-flex items-center gap-0.5">
      <span className="sr-only">{formatNumber(rating, { decimals: 1 })} sur 5</span>
      {[1, 2, 3, 4, 5].map((star) => (
        <Icon
          key={star}
          name="star"
          className={`${className} ${star <= Math.round(rating) ? "fill-accent-500 text-accent-600" : "text-slate-400"}`}
        />
      ))}
    </span>
  );
}
