import { Link } from "react-router";
import { cx } from "~/components/ui/control";
import { textPieces } from "~/lib/forum";

/**
 * A post's plain text: paragraphs and line breaks kept, http(s) links made clickable (opening
 * elsewhere, without passing our address), hashtags leading to the forum filtered by them.
 * Everything else is text: no HTML typed by anyone is ever interpreted.
 */
export function PostText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={cx("space-y-3 break-words text-slate-800", className)}>
      {textPieces(text).map((paragraph, index) => (
        <p key={index}>
          {paragraph.map((line, lineIndex) => (
            <span key={lineIndex}>
              {lineIndex > 0 && <br />}
              {line.map((piece, pieceIndex) =>
                piece.kind === "link" ? (
                  <a
                    key={pieceIndex}
                    href={piece.href}
                    rel="nofollow ugc noopener noreferrer"
                    target="_blank"
                    className="font-medium text-brand-700 underline underline-offset-2"
                  >
                    {piece.text}
                  </a>
                ) : piece.kind === "tag" ? (
                  <Link
                    key={pieceIndex}
                    to={`/dashboard/forum?tag=${encodeURIComponent(piece.tag)}`}
                    className="font-medium text-brand-700 hover:underline"
                  >
                    {piece.text}
                  </Link>
                ) : (
                  piece.text
                ),
              )}
            </span>
          ))}
        </p>
      ))}
    </div>
  );
}
