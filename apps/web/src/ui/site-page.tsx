import type { ReactNode } from 'react';

/** Frames a page of the public site (the dashboard layout has its own frame). */
export function SitePage({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-8 lg:px-8">{children}</div>
  );
}
