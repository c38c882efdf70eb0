import { useEffect } from 'react';
import { ROUTES } from '../../lib/routes';

/** Height of the mobile bottom bar (SPEC §2). */
export const MOBILE_BOTTOM_BAR_PX = 72;

/** The body's height on a phone: the visible viewport less the bottom bar; /login has no bar and no rule. */
export function mobileBodyHeight(visibleViewportHeight: number, pathname: string): string {
  if (pathname === ROUTES.login) return '';
  return `${Math.max(0, visibleViewportHeight - MOBILE_BOTTOM_BAR_PX)}px`;
}

/** Keeps the body's height in step with the visible viewport (the on-screen keyboard shrinks it). */
export function useMobileBodyHeight(pathname: string): void {
  useEffect(() => {
    const viewport = window.visualViewport;
    const apply = () => {
      document.body.style.height = mobileBodyHeight(viewport?.height ?? window.innerHeight, pathname);
    };
    apply();
    const target: EventTarget = viewport ?? window;
    target.addEventListener('resize', apply);
    return () => {
      target.removeEventListener('resize', apply);
      document.body.style.height = '';
    };
  }, [pathname]);
}
