import { useId, useState, type ReactNode } from 'react';
import type { Contact } from '@opp/contracts';
import { FormAlert } from '@/components/ui/alert';
import { Modal } from '@/components/ui/modal';
import { useOpenCount } from '@/hooks/use-open-count';
import { useSaveContact, type ContactDraft } from '../api/contacts';
import {
  keptSaveOutcome,
  useKeptEdit,
  useSaveOnResume,
  type DialogError,
} from '@/features/municipality-admin/utils/pending-edit';

export interface ContactModalProps {
  open: boolean;
  onClose: () => void;
  /** The contact being edited, or null to add one. */
  contact: Contact | null;
  clientId: number;
}

/** Spec §2 Contact Info modal (admin): the six fields and Update; the server's error text is shown here. */
export function ContactModal({ open, onClose, contact, clientId }: ContactModalProps) {
  const opening = useOpenCount(open);
  return (
    <Modal open={open} onClose={onClose} title="Contact Info" size="lg">
      <ContactForm key={opening} contact={contact} clientId={clientId} onDone={onClose} />
    </Modal>
  );
}

type Field = Exclude<keyof ContactDraft, 'ContactID' | 'ClientID'>;
const FIELDS: readonly Field[] = [
  'Title',
  'Telephone',
  'ContactUrl',
  'ContactEmail',
  'HoursOfOperation',
  'FreeFormMessage',
];

function ContactForm({
  contact,
  clientId,
  onDone,
}: {
  contact: Contact | null;
  clientId: number;
  onDone: () => void;
}) {
  const id = useId();
  const save = useSaveContact(clientId);
  const start = (): ContactDraft => ({
    ContactID: contact?.ContactID ?? null,
    ClientID: clientId,
    Title: contact?.Title ?? '',
    Telephone: contact?.Telephone ?? '',
    ContactUrl: contact?.ContactUrl ?? '',
    ContactEmail: contact?.ContactEmail ?? '',
    HoursOfOperation: contact?.HoursOfOperation ?? '',
    FreeFormMessage: contact?.FreeFormMessage ?? '',
  });
  // What was typed before the session expired, if anything, and kept if it expires now (pending-edit.ts).
  const [draft, setDraft, kept] = useKeptEdit<ContactDraft>(`contact-form:${clientId}`, start, (d) => {
    const s = start();
    return FIELDS.some((f) => d[f] !== s[f]);
  });
  const [error, setError] = useState<DialogError | null>(null);
  const errorId = `${id}-error`;

  const field = (name: Field, label: string, input: (props: InputProps) => ReactNode) => {
    const invalid = error?.fields.includes(name) ?? false;
    return (
      <>
        <label className="usa-label" htmlFor={`${id}-${name}`}>
          {label}
        </label>
        {input({
          id: `${id}-${name}`,
          className: invalid ? 'usa-input--error' : '',
          'aria-invalid': invalid || undefined,
          'aria-describedby': invalid ? errorId : undefined,
          value: draft[name],
          onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: e.target.value })),
        })}
      </>
    );
  };

  const submit = () => {
    setError(null);
    kept.setSaving(true);
    save.mutate(draft, keptSaveOutcome(kept, 'Contact saved', onDone, setError));
  };

  useSaveOnResume(kept, submit);

  return (
    <form
      className="usa-form maxw-full"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <FormAlert message={error?.message} id={errorId} />
      {field('Title', 'Name/Title', (p) => (
        <input {...p} className={`usa-input ${p.className}`} required />
      ))}
      {field('Telephone', 'Phone Number', (p) => (
        <input {...p} className={`usa-input ${p.className}`} type="tel" autoComplete="off" />
      ))}
      {field('ContactUrl', 'Home URL', (p) => (
        <input
          {...p}
          className={`usa-input ${p.className}`}
          type="url"
          inputMode="url"
          placeholder="https://"
        />
      ))}
      {field('ContactEmail', 'Email Address', (p) => (
        <input {...p} className={`usa-input ${p.className}`} type="email" autoComplete="off" />
      ))}
      {field('HoursOfOperation', 'Hours of Operation', (p) => (
        <input {...p} className={`usa-input ${p.className}`} />
      ))}
      {field('FreeFormMessage', 'Free Form Message', (p) => (
        <textarea {...p} className={`usa-textarea ${p.className}`} rows={4} />
      ))}
      <button type="submit" className="usa-button margin-top-3" disabled={save.isPending}>
        Update
      </button>
    </form>
  );
}

interface InputProps {
  id: string;
  className: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
}
