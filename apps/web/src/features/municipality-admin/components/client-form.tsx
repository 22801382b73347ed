import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { canAdministerClient, TITLES, type PublicClient, type User } from '@opp/contracts';
import { FormAlert } from '@/components/ui/alert';
import { paths } from '@/config/paths';
import { BannerUpload } from '@/features/images/components/banner-upload';
import { useSaveClient, type ClientDraft } from '../hooks/use-save-client';
import { errorText } from '@/utils/error-text';
import { useKeptEdit, useSaveOnResume } from '../utils/pending-edit';

/** The title a Description starts with ("Town of Harrison" → "Town of"); the default when none matches. */
function titleOf(client: PublicClient): string {
  return TITLES.find((t) => client.Description.startsWith(`${t} `)) ?? TITLES[0];
}

/**
 * Spec §2 client form: Title (only "Town of"), City/Town and the banner. Save runs the §4 banner
 * sequence, patches the client, and after a rename moves to /{state name}/{new city}/admin.
 */
export function ClientForm({ client, me }: { client: PublicClient; me: User }) {
  const id = useId();
  const navigate = useNavigate();
  const save = useSaveClient();
  // What was typed before the session expired, if anything, and kept if it expires now (pending-edit.ts).
  const [draft, setDraft, kept] = useKeptEdit<ClientDraft>(
    `client-form:${client.ClientID}`,
    () => ({ title: titleOf(client), city: client.City, banner: { kind: 'keep' } }),
    (d) => d.city !== client.City || d.title !== titleOf(client) || d.banner.kind !== 'keep',
  );
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    // Spec §5: blocked when the signed-in user does not manage this client (RoleID 1 is exempt).
    if (!canAdministerClient({ id: me.UserId, roleId: me.RoleID, manages: me.Manages }, client.ClientID)) {
      toast.error('An error occured');
      return;
    }
    if (!draft.city.trim()) {
      setError('City/Town is required.');
      return;
    }
    kept.setSaving(true);
    save.mutate(
      { client, draft },
      {
        onSettled: () => kept.setSaving(false),
        onSuccess: (saved) => {
          toast.success('Client saved');
          setDraft((d) => ({ ...d, city: saved.City, banner: { kind: 'keep' } }));
          if (saved.City !== client.City || saved.StateProvince !== client.StateProvince)
            void navigate(paths.municipalityAdmin.getHref(saved.StateProvince, saved.City), {
              replace: true,
            });
        },
        onError: (err) => {
          toast.error('An error occured');
          setError(errorText(err));
        },
      },
    );
  };

  useSaveOnResume(kept, submit);

  return (
    <section className="opp-admin-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="margin-top-0">
        Municipality
      </h2>
      <form
        className="usa-form maxw-tablet"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <FormAlert message={error} id={`${id}-error`} />
        <label className="usa-label" htmlFor={`${id}-title`}>
          Title
        </label>
        <select
          id={`${id}-title`}
          className="usa-select"
          value={draft.title}
          onChange={(e) => setDraft((d) => ({ ...d, title: e.target.value }))}
        >
          {TITLES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <label className="usa-label" htmlFor={`${id}-city`}>
          City/Town
        </label>
        <input
          id={`${id}-city`}
          className="usa-input"
          required
          maxLength={100}
          autoComplete="off"
          aria-describedby={error ? `${id}-error` : undefined}
          value={draft.city}
          onChange={(e) => setDraft((d) => ({ ...d, city: e.target.value }))}
        />
        <BannerUpload
          current={client.BannerImage}
          value={draft.banner}
          onChange={(banner) => setDraft((d) => ({ ...d, banner }))}
          alt={`Banner of ${client.City}, ${client.StateProvince}`}
        />
        <button type="submit" className="usa-button margin-top-3" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </form>
    </section>
  );
}
