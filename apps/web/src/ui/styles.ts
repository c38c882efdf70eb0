/** Shared class lists, so every screen's buttons, inputs and cards look the same. */
export const buttonClass = {
  primary:
    'inline-flex items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700 disabled:cursor-not-allowed disabled:bg-indigo-300',
  secondary:
    'inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50',
  danger:
    'inline-flex items-center justify-center gap-2 rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700 disabled:cursor-not-allowed disabled:bg-red-300',
  ghost:
    'inline-flex items-center justify-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:cursor-not-allowed disabled:opacity-50',
} as const;

export const inputClass =
  'w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-100';

export const cardClass = 'rounded-xl border border-slate-200 bg-white p-4 shadow-sm md:p-6';

export const labelClass = 'text-sm font-medium text-slate-700';

/** A text link at least 24×24 px, WCAG 2.2's minimum target size (a 14 px line alone is 16–20 px tall). */
export const tapTargetClass = 'inline-flex min-h-6 min-w-6 items-center';
