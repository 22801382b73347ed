import { Role, type RoleId } from '@opp/contracts';

/** Spec §6: the Super Admin column is checked for RoleID ≤ 2, the Site Admin column for RoleID ≤ 3. */
export const isSuperChecked = (roleId: RoleId) => roleId <= Role.SuperAdmin;
export const isSiteChecked = (roleId: RoleId) => roleId <= Role.SiteAdmin;

/**
 * Spec §4 role checkboxes: ticking Super sets 2; ticking Site sets 3; unticking Super sets 3; unticking
 * Site sets 4. A provider admin's role (1) is not changed through these boxes.
 */
export function applyRoleCheckbox(current: RoleId, box: 'super' | 'site', checked: boolean): RoleId {
  if (current === Role.Provider) return current;
  if (box === 'super') return checked ? Role.SuperAdmin : Role.SiteAdmin;
  return checked ? Role.SiteAdmin : Role.Lower;
}
