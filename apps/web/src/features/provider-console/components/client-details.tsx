import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import type { PublicClient } from '@opp/contracts';
import { FormAlert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useDeleteClient } from '../api/delete-client';
import { useUpdateClient } from '../api/update-client';
import {
  clientToForm,
  formToBody,
  serverFieldErrors,
  type ClientFormErrors,
  type ClientFormValues,
} from '../utils/client-form';
import { formatCount } from '@/utils/format';
import { ClientForm } from './client-form';
import { TrashIcon } from './trash-icon';

/**
 * Spec §2 "Settings for: {city}", the client's own fields: prefilled, saved with Update. Deleting the
 * client is a section of its own below (its button says what it does, in words, away from Update),
 * after a confirmation naming the client; the console's list is shown afterwards.
 */
export function ClientDetails({ client }: { client: PublicClient }) {
  const formId = useId();
  const deleteId = useId();
  const navigate = useNavigate();
  const [values, setValues] = useState<ClientFormValues>(() => clientToForm(client));
  const [errors, setErrors] = useState<ClientFormErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateClient();
  const remove = useDeleteClient();

  // mutateAsync, not mutate callbacks: a 401 signs out and unmounts this form, and the toast must
  // still appear.
  const save = async () => {
    setProblem(null);
    setErrors({});
    try {
      await update.mutateAsync({ id: client.ClientID, body: formToBody(values) });
      toast.success('Client saved');
    } catch (err) {
      // Spec §4: a 401 here says "Session Expired"; the API client has already cleared the login.
      if (err instanceof ApiError && err.status === 401) {
        toast.error('Session Expired');
        return;
      }
      toast.error('An error occured');
      if (err instanceof ApiError) {
        setErrors(serverFieldErrors(err.fields).byField);
        setProblem(err.message);
      }
    }
  };

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(client.ClientID);
      toast.success('Client deleted');
      setConfirming(false);
      // The page is gone with the client: back to the list, in place of this page in the history.
      void navigate(paths.providerAdmin.getHref(), { replace: true });
    } catch (err) {
      toast.error(err instanceof ApiError && err.status === 401 ? 'Session Expired' : 'An error occured');
      setProblem(err instanceof ApiError ? err.message : 'The client could not be deleted.');
      setConfirming(false);
    }
  };

  return (
    <>
      <section aria-labelledby={`${formId}-heading`}>
        <h2 id={`${formId}-heading`} className="margin-bottom-1">
          Details
        </h2>
        <form
          id={formId}
          className="opp-client-details"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <FormAlert message={problem} className="margin-bottom-2" />
          <ClientForm values={values} onChange={setValues} errors={errors} disabled={update.isPending} />
          <button type="submit" className="usa-button margin-top-3" disabled={update.isPending}>
            {update.isPending ? 'Updating…' : 'Update'}
          </button>
        </form>
      </section>

      <section aria-labelledby={`${deleteId}-heading`} className="opp-danger-zone margin-top-6">
        <h2 id={`${deleteId}-heading`} className="margin-top-0 margin-bottom-1">
          Delete this client
        </h2>
        <p className="margin-top-0">
          Removes {client.City} and everything that is its own, after you confirm.
        </p>
        <button
          type="button"
          className="usa-button usa-button--secondary opp-icon-button"
          onClick={() => setConfirming(true)}
        >
          <TrashIcon />
          <span className="margin-left-1">Delete {client.City}</span>
        </button>
      </section>

      <ConfirmDialog
        open={confirming}
        title={`Delete ${client.City}, ${client.StateProvince}?`}
        confirmLabel={remove.isPending ? 'Deleting…' : `Delete ${client.City}`}
        pending={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          This deletes {client.City} and everything that is its own: its {formatCount(client.ParcelCount)}{' '}
          propert{client.ParcelCount === 1 ? 'y' : 'ies'}, contacts, images and import history. Its admins
          keep their accounts but lose access to it. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
