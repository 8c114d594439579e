/** The institute's mark: the same drawing as the favicon. */
export function LogoMark({ className = "size-10" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#1e40af" />
      <path d="M8 21V11l8-4 8 4v10l-8 4z" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinejoin="round" />
      <circle cx="16" cy="16" r="2.6" fill="#f59e0b" />
    </svg>
  );
}
