/** Small drawn marks for the social networks (lucide no longer ships brand logos). */
export function SocialIcon({ network, className = "size-5" }: { network: string; className?: string }) {
  const common = { viewBox: "0 0 24 24", className, "aria-hidden": true, focusable: false } as const;
  switch (network) {
    case "facebook":
      return (
        <svg {...common} fill="currentColor">
          <path d="M13.5 21v-7.5h2.6l.4-3h-3V8.6c0-.9.3-1.5 1.6-1.5h1.6V4.4c-.3 0-1.2-.1-2.3-.1-2.3 0-3.9 1.4-3.9 4v2.2H7.9v3h2.6V21z" />
        </svg>
      );
    case "linkedin":
      return (
        <svg {...common} fill="currentColor">
          <rect x="3.5" y="9" width="3.5" height="11" rx="0.5" />
          <circle cx="5.25" cy="5.25" r="2" />
          <path d="M9.5 9h3.3v1.6c.5-.9 1.7-1.9 3.5-1.9 3.3 0 4.2 2.1 4.2 5V20h-3.5v-5.6c0-1.4-.3-2.6-1.8-2.6-1.6 0-2.2 1.1-2.2 2.7V20H9.5z" />
        </svg>
      );
    case "youtube":
      return (
        <svg {...common} fill="currentColor">
          <path d="M21.6 7.2a2.6 2.6 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.6 2.6 0 0 0 2.4 7.2C2 8.8 2 12 2 12s0 3.2.4 4.8a2.6 2.6 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.6 2.6 0 0 0 1.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8M10 15V9l5.2 3z" />
        </svg>
      );
    default:
      return (
        <svg {...common} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
        </svg>
      );
  }
}
