import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import toast from 'react-hot-toast';
import { ApiError } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';
import { errorText } from '@/utils/error-text';

/*
 * An edit a town admin was making when their session expired (the 60-minute idle limit): kept in
 * memory while they sign in again on the same page, then given back to the form (or dialog), which
 * saves it at once if Save was what found the session gone. Memory only: a reload starts clean, and a
 * file chosen for the banner cannot be written to storage anyway.
 */

interface Kept {
  value: unknown;
  /** Save was pressed: save again as soon as the form is back. */
  save: boolean;
}

const kept = new Map<string, Kept>();

export const pendingEdits = {
  keep(key: string, value: unknown, save: boolean): void {
    kept.set(key, { value, save });
  },
  /** The kept edit for `key`, removed as it is taken. */
  take<T>(key: string): { value: T; save: boolean } | null {
    const k = kept.get(key);
    kept.delete(key);
    return k ? { value: k.value as T, save: k.save } : null;
  },
};

export interface KeptEdit {
  /** Save was what found the session gone: save what was given back as soon as the form is back. */
  resumedSave: boolean;
  /**
   * Marks a save as under way (true) or over (false). A save that ended because the session expired
   * stays under way, so it is done again after signing in.
   */
  setSaving: (saving: boolean) => void;
}

/**
 * `useState` for what a town admin is editing, kept (pendingEdits, under `key`) when the session
 * expires and the page turns into the login page, and given back when the form mounts again after
 * signing in. Kept only when it differs from where it started (`changed`) or a save was under way.
 */
export function useKeptEdit<T>(
  key: string,
  initial: () => T,
  changed: (value: T) => boolean,
): [T, Dispatch<SetStateAction<T>>, KeptEdit] {
  const [resumed] = useState(() => pendingEdits.take<T>(key));
  const [value, setValue] = useState<T>(() => (resumed ? resumed.value : initial()));
  const latest = useRef({ value, changed, saving: false });
  useEffect(() => {
    latest.current.value = value;
    latest.current.changed = changed;
  });
  useEffect(
    () => () => {
      const { value: v, changed: c, saving } = latest.current;
      if (authStore.sessionExpired() && (saving || c(v))) pendingEdits.keep(key, v, saving);
    },
    [key],
  );
  const [edit] = useState<KeptEdit>(() => ({
    resumedSave: resumed?.save ?? false,
    setSaving: (saving) => {
      if (saving || !authStore.sessionExpired()) latest.current.saving = saving;
    },
  }));
  return [value, setValue, edit];
}

/** Back from signing in again after Save found the session expired: `submit` what was kept, once. */
export function useSaveOnResume(edit: KeptEdit, submit: () => void): void {
  const pending = useRef(edit.resumedSave);
  useEffect(() => {
    if (!pending.current) return;
    pending.current = false;
    submit();
  });
}

/** A dialog's save error: the server's words and the fields it names. */
export interface DialogError {
  message: string;
  fields: string[];
}

/**
 * What a town admin's dialog does when its kept edit's save ends: the edit stops counting as being
 * saved; success says `saved` and closes the dialog; failure shows the server's words on the fields
 * it names.
 */
export function keptSaveOutcome(
  edit: KeptEdit,
  saved: string,
  onDone: () => void,
  setError: (error: DialogError) => void,
) {
  return {
    onSettled: () => edit.setSaving(false),
    onSuccess: () => {
      toast.success(saved);
      onDone();
    },
    onError: (err: unknown) => {
      toast.error('An error occured');
      setError({
        message: errorText(err),
        fields: err instanceof ApiError ? err.fields.map((f) => f.field) : [],
      });
    },
  };
}
