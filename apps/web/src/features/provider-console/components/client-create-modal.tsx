import { useEffect, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { FormAlert } from '@/components/ui/alert';
import { Modal } from '@/components/ui/modal';
import { ApiError } from '@/lib/api-client';
import { useCreateClient } from '../api/create-client';
import {
  formToBody,
  NEW_CLIENT,
  serverFieldErrors,
  validateNewClient,
  type ClientFormErrors,
  type ClientFormValues,
} from '../utils/client-form';
import { ClientForm } from './client-form';

export interface ClientCreateModalProps {
  open: boolean;
  onClose: () => void;
}

/** Spec §2 "Please enter the client Information": the new-client form with the §4 defaults. */
export function ClientCreateModal({ open, onClose }: ClientCreateModalProps) {
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<ClientFormValues>(NEW_CLIENT);
  const [errors, setErrors] = useState<ClientFormErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const create = useCreateClient();

  // After a refused submit, focus the first field with a message so its text is read out.
  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const close = () => {
    setValues(NEW_CLIENT);
    setErrors({});
    setProblem(null);
    create.reset();
    onClose();
  };

  const submit = () => {
    const found = validateNewClient(values);
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length > 0) {
      setAttempt((n) => n + 1);
      return;
    }
    create.mutate(formToBody(values), {
      onSuccess: () => {
        toast.success('Client Added');
        close();
      },
      onError: (err) => {
        toast.error('An error occured');
        if (err instanceof ApiError) {
          const { byField, other } = serverFieldErrors(err.fields);
          setErrors(byField);
          setProblem(Object.keys(byField).length > 0 && other.length === 0 ? null : err.message);
        } else setProblem('The client could not be added. Try again.');
        setAttempt((n) => n + 1);
      },
    });
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title="Please enter the client Information"
      size="lg"
      footer={
        <ul className="usa-button-group">
          <li className="usa-button-group__item">
            <button type="submit" form={formId} className="usa-button" disabled={create.isPending}>
              {create.isPending ? 'Adding…' : 'Add'}
            </button>
          </li>
          <li className="usa-button-group__item">
            <button type="button" className="usa-button usa-button--unstyled padding-105" onClick={close}>
              Cancel
            </button>
          </li>
        </ul>
      }
    >
      <form
        id={formId}
        ref={formRef}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <FormAlert message={problem} className="margin-bottom-2" />
        <ClientForm values={values} onChange={setValues} errors={errors} disabled={create.isPending} />
      </form>
    </Modal>
  );
}
