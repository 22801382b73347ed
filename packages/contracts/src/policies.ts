import { Role, type RoleId } from './users.ts';

/*
 * Who may do what (spec §6). Pure functions: the server enforces them, the web app only uses them to
 * hide what the server would refuse.
 */

export interface Actor {
  id: number;
  roleId: RoleId;
  manages: number | null;
}

export const isProviderAdmin = (a: Actor | null): boolean => a?.roleId === Role.Provider;

/** Open a municipality's admin area: title, city, banner, contacts. Roles 1, or 2/3 managing this client. */
export function canAdministerClient(a: Actor | null, clientId: number): boolean {
  if (!a) return false;
  if (a.roleId === Role.Provider) return true;
  return (a.roleId === Role.SuperAdmin || a.roleId === Role.SiteAdmin) && a.manages === clientId;
}

/** Create, change or delete a municipality's admins: a provider admin, or that client's Super Administrator. */
export function canManageAdmins(a: Actor | null, clientId: number): boolean {
  if (!a) return false;
  if (a.roleId === Role.Provider) return true;
  return a.roleId === Role.SuperAdmin && a.manages === clientId;
}

/** Nobody grants a role higher (a lower number) than their own. */
export const canGrantRole = (a: Actor, roleId: RoleId): boolean => roleId >= a.roleId;
