import { describe, expect, it } from 'vitest';
import { applyRoleCheckbox, isSiteChecked, isSuperChecked } from './roles';

describe('role checkboxes (spec §4, §6)', () => {
  it('ticking Super sets 2; ticking Site sets 3; unticking Super sets 3; unticking Site sets 4', () => {
    expect(applyRoleCheckbox(3, 'super', true)).toBe(2);
    expect(applyRoleCheckbox(4, 'super', true)).toBe(2);
    expect(applyRoleCheckbox(4, 'site', true)).toBe(3);
    expect(applyRoleCheckbox(2, 'super', false)).toBe(3);
    expect(applyRoleCheckbox(3, 'site', false)).toBe(4);
    expect(applyRoleCheckbox(2, 'site', false)).toBe(4);
  });

  it('columns: Super checked for RoleID ≤ 2, Site for RoleID ≤ 3', () => {
    expect([1, 2, 3, 4].map((r) => isSuperChecked(r as 1))).toEqual([true, true, false, false]);
    expect([1, 2, 3, 4].map((r) => isSiteChecked(r as 1))).toEqual([true, true, true, false]);
  });

  it('never turns a provider admin into a municipality role', () => {
    expect(applyRoleCheckbox(1, 'super', false)).toBe(1);
    expect(applyRoleCheckbox(1, 'site', false)).toBe(1);
  });
});
