import { useEffect, type ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { MOBILE_BOTTOM_BAR_PX } from '../mobile-body-height';

/**
 * A tab takes its label's width plus an equal share of the room left over (flex-auto, not flex-1):
 * with equal cells of 60 px on a 360 px phone, 'Активность' (67 px at 11 px) overflowed its cell and ran
 * into 'Пополнить', and 'API-ключи' broke at its hyphen. Labels never wrap, so each word stays whole.
 */
const tabClass = ({ isActive }: { isActive: boolean }) =>
  `flex flex-auto flex-col items-center justify-center gap-1 px-0.5 text-[11px] font-medium whitespace-nowrap ${
    isActive ? 'text-indigo-600' : 'text-slate-500'
  }`;

/**
 * Set on the document while a bottom bar is shown: fixed overlays (the cookie banner) stand above the bar
 * by it, and on a page without one (/login on a phone) sit at the screen's foot.
 */
export const BOTTOM_BAR_HEIGHT_VAR = '--bottom-bar-height';

/** The phone's bottom bar (SPEC §2: 72 px), on the site and in the dashboard alike. */
export function BottomBar({ label, children }: { label: string; children: ReactNode }) {
  useEffect(() => {
    const root = document.documentElement;
    root.style.setProperty(BOTTOM_BAR_HEIGHT_VAR, `${MOBILE_BOTTOM_BAR_PX}px`);
    return () => {
      root.style.removeProperty(BOTTOM_BAR_HEIGHT_VAR);
    };
  }, []);
  return (
    <nav
      aria-label={label}
      style={{ height: MOBILE_BOTTOM_BAR_PX }}
      className="fixed inset-x-0 bottom-0 z-40 flex border-t border-slate-200 bg-white"
    >
      {children}
    </nav>
  );
}

export function BottomBarLink({
  to,
  end,
  icon,
  children,
}: {
  to: string;
  end?: boolean;
  icon?: ReactNode;
  children: ReactNode;
}) {
  return (
    <NavLink to={to} end={end} className={tabClass}>
      {icon}
      {children}
    </NavLink>
  );
}
