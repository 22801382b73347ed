import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import type { PublicClient } from '@opp/contracts';
import { FormAlert } from '@/components/ui/alert';
import { Modal } from '@/components/ui/modal';
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
import { ClientContacts } from './client-contacts';
import { ClientForm } from './client-form';
import { ImportHistory } from './import-history';
import { ParcelLayerUpload } from './parcel-layer-upload';
import { RollPublisher } from './roll-publisher';
import { TrashIcon } from './trash-icon';

export interface ClientSettingsModalProps {
  /** The client being edited; null when the modal is closed. */
  client: PublicClient | null;
  onClose: () => void;
  /** After a delete: the Edit button that opened the modal is gone, so the list decides where focus goes. */
  onDeleted?: () => void;
}

/**
 * Spec §2 "Settings for: {city}": the client's fields prefilled, Update, delete (after a confirmation
 * naming the client), its contacts, publishing a roll and the import history.
 */
export function ClientSettingsModal({ client, onClose, onDeleted }: ClientSettingsModalProps) {
  // Keep showing the last client while the modal fades out.
  const [shown, setShown] = useState<PublicClient | null>(client);
  useEffect(() => {
    if (client) setShown(client);
  }, [client]);

  return (
    <Modal open={client !== null} onClose={onClose} title={`Settings for: ${shown?.City ?? ''}`} size="lg">
      {shown ? (
        <SettingsBody key={shown.ClientID} client={shown} onClose={onClose} onDeleted={onDeleted} />
      ) : null}
    </Modal>
  );
}

function SettingsBody({
  client,
  onClose,
  onDeleted,
}: {
  client: PublicClient;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const formId = useId();
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
      onClose();
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
      onClose();
      onDeleted?.();
    } catch (err) {
      toast.error(err instanceof ApiError && err.status === 401 ? 'Session Expired' : 'An error occured');
      setProblem(err instanceof ApiError ? err.message : 'The client could not be deleted.');
      setConfirming(false);
    }
  };

  return (
    <>
      <p className="margin-top-0">
        {client.City}, {client.StateProvince} · Client ID {client.ClientID} ·{' '}
        <Link to={paths.municipalityAdmin.getHref(client.StateProvince, client.City)}>
          Open {client.City}’s admin area
        </Link>
      </p>
      <form
        id={formId}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <FormAlert message={problem} className="margin-bottom-2" />
        <ClientForm values={values} onChange={setValues} errors={errors} disabled={update.isPending} />
        <ul className="usa-button-group margin-top-3">
          <li className="usa-button-group__item">
            <button type="submit" className="usa-button" disabled={update.isPending}>
              {update.isPending ? 'Updating…' : 'Update'}
            </button>
          </li>
          <li className="usa-button-group__item">
            <button
              type="button"
              className="usa-button usa-button--secondary opp-icon-button"
              aria-label={`Delete ${client.City}`}
              title={`Delete ${client.City}`}
              onClick={() => setConfirming(true)}
            >
              <TrashIcon />
            </button>
          </li>
        </ul>
      </form>
      <ClientContacts clientId={client.ClientID} />
      <RollPublisher client={client} />
      <ImportHistory clientId={client.ClientID} />
      <ParcelLayerUpload client={client} />

      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Delete ${client.City}, ${client.StateProvince}?`}
        footer={
          <ul className="usa-button-group">
            <li className="usa-button-group__item">
              <button
                type="button"
                className="usa-button usa-button--secondary"
                disabled={remove.isPending}
                onClick={() => void confirmDelete()}
              >
                {remove.isPending ? 'Deleting…' : `Delete ${client.City}`}
              </button>
            </li>
            <li className="usa-button-group__item">
              <button
                type="button"
                className="usa-button usa-button--unstyled padding-105"
                data-autofocus
                onClick={() => setConfirming(false)}
              >
                Cancel
              </button>
            </li>
          </ul>
        }
      >
        <p>
          This deletes {client.City} and everything that is its own: its {formatCount(client.ParcelCount)}{' '}
          propert{client.ParcelCount === 1 ? 'y' : 'ies'}, contacts, images and import history. Its admins
          keep their accounts but lose access to it. This cannot be undone.
        </p>
      </Modal>
    </>
  );
}
