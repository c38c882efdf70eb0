import { USER_GROUPS } from '@tollgate/contracts';
import type { TFunction } from 'i18next';

/**
 * SPEC §3: the named groups are shown as Default, VIP, Super VIP, Enterprise; an operator also
 * needs the stored name where the label hides it (default_prev, svip). Other groups show as named.
 */
export function groupLabel(group: string, t: TFunction<'admin'>): string {
  if (!(USER_GROUPS as readonly string[]).includes(group)) return group;
  const label = t(`group_label_${group}`);
  return label.toLowerCase() === group ? label : `${label} (${group})`;
}

/** The groups an operator can pick: the named ones and those with a price ratio, in that order. */
export function knownGroups(groupRatios: Record<string, number> = {}): string[] {
  return [...new Set([...USER_GROUPS, ...Object.keys(groupRatios)])];
}
