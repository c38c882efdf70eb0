import { Role } from '@tollgate/contracts';
import { ROUTES } from '../../lib/routes';

export interface NavItem {
  /** Key of the label in the dashboard namespace: `nav_<key>`. */
  key: string;
  to: string;
  /** An SVG path (24×24 viewBox, stroked). */
  icon: string;
  end?: boolean;
  /** Shown only to users with at least this role. */
  minRole?: Role;
}

/** The items a user with `role` may see. */
export const visibleTo = (items: readonly NavItem[], role: number): NavItem[] =>
  items.filter((item) => item.minRole === undefined || role >= item.minRole);

const ICONS = {
  home: 'M3 10.5 12 3l9 7.5V21h-6v-6H9v6H3z',
  chat: 'M4 5h16v11H8l-4 4zM8 9h8M8 12h5',
  admin: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM9 12l2 2 4-4',
  key: 'M15 7a4 4 0 1 1-3.9 4.9L3 20v-3h2v-2h2v-2h2.1A4 4 0 0 1 15 7zm1 3h.01',
  activity: 'M3 12h4l3-8 4 16 3-8h4',
  wallet: 'M3 7h18v12H3zM3 7l3-3h12l3 3M16 13h2',
  price: 'M12 2v20M17 6H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6',
  docs: 'M6 3h9l4 4v14H6zM14 3v5h5M9 13h7M9 17h7',
  changelog: 'M12 8v5l3 2M21 12a9 9 0 1 1-9-9 9 9 0 0 1 9 9z',
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-2.9 1.2V21a2 2 0 1 1-4 0v-.1A1.7 1.7 0 0 0 9 19.4a1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1A1.7 1.7 0 0 0 3.2 14H3a2 2 0 1 1 0-4h.1A1.7 1.7 0 0 0 4.6 9a1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1A1.7 1.7 0 0 0 9 4.6h.1A1.7 1.7 0 0 0 10 3.1V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 2.9 1.2l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
} as const;

/** The desktop sidebar. */
export const SIDEBAR_ITEMS: readonly NavItem[] = [
  { key: 'home', to: ROUTES.dashboard, icon: ICONS.home, end: true },
  { key: 'chat', to: ROUTES.dashboardChat, icon: ICONS.chat },
  { key: 'tokens', to: ROUTES.dashboardTokens, icon: ICONS.key },
  { key: 'activity', to: ROUTES.dashboardActivity, icon: ICONS.activity },
  { key: 'payment', to: ROUTES.dashboardPayment, icon: ICONS.wallet },
  { key: 'price', to: ROUTES.dashboardPrice, icon: ICONS.price },
  { key: 'docs', to: ROUTES.dashboardDocs, icon: ICONS.docs },
  { key: 'changelog', to: ROUTES.dashboardChangelog, icon: ICONS.changelog },
  { key: 'settings', to: ROUTES.dashboardSettings, icon: ICONS.settings },
  { key: 'admin', to: ROUTES.dashboardAdmin, icon: ICONS.admin, minRole: Role.Admin },
];

/** The phone's bottom bar: the six screens used most; the rest are linked from home. */
export const BOTTOM_BAR_ITEMS: readonly NavItem[] = [
  { key: 'home', to: ROUTES.dashboard, icon: ICONS.home, end: true },
  { key: 'chat', to: ROUTES.dashboardChat, icon: ICONS.chat },
  { key: 'tokens', to: ROUTES.dashboardTokens, icon: ICONS.key },
  { key: 'activity', to: ROUTES.dashboardActivity, icon: ICONS.activity },
  { key: 'payment', to: ROUTES.dashboardPayment, icon: ICONS.wallet },
  { key: 'settings', to: ROUTES.dashboardSettings, icon: ICONS.settings },
];
