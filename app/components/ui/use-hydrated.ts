import { useEffect, useState } from "react";

/**
 * False in the server's HTML and until React has hydrated the page, then true: parts that need
 * JavaScript (a dialog, an upload) show only once it runs, and the page works before and without it.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
