import { useId, type ReactNode } from 'react';
import { US_STATES } from '@opp/contracts';
import { DEFAULT_PICTURE_LEVEL, type ClientFormErrors, type ClientFormValues } from '../utils/client-form';

export interface ClientFormProps {
  values: ClientFormValues;
  onChange: (values: ClientFormValues) => void;
  errors: ClientFormErrors;
  disabled?: boolean;
}

/** The fields of both client modals (creation and settings), in the order of spec §2. */
export function ClientForm({ values, onChange, errors, disabled = false }: ClientFormProps) {
  const id = useId();
  const set = <K extends keyof ClientFormValues>(key: K, value: ClientFormValues[K]) =>
    onChange({ ...values, [key]: value });

  return (
    <div className="opp-client-form">
      <TextField
        id={`${id}-city`}
        name="City"
        label="Client Name"
        required
        value={values.City}
        error={errors.City}
        disabled={disabled}
        onChange={(v) => set('City', v)}
      />
      <TextField
        id={`${id}-country`}
        name="Country"
        label="Country"
        required
        value={values.Country}
        error={errors.Country}
        disabled={disabled}
        autoComplete="country-name"
        onChange={(v) => set('Country', v)}
      />
      <TextField
        id={`${id}-state`}
        name="StateProvince"
        label="State/Province"
        required
        value={values.StateProvince}
        error={errors.StateProvince}
        disabled={disabled}
        hint="Type to choose from the 50 US states."
        list={`${id}-states`}
        onChange={(v) => set('StateProvince', v)}
      />
      <datalist id={`${id}-states`}>
        {US_STATES.map(([name]) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <TextField
        id={`${id}-description`}
        name="Description"
        label="Description"
        value={values.Description}
        error={errors.Description}
        disabled={disabled}
        hint="Title and town, such as “Town of Harrison”; left empty, it becomes “Town of” and the client name."
        onChange={(v) => set('Description', v)}
      />
      <Choice
        legend="Status"
        name={`${id}-active`}
        value={values.IsActive}
        yes="Active"
        no="Inactive"
        disabled={disabled}
        onChange={(v) => set('IsActive', v)}
      />
      <Choice
        legend="Type"
        name={`${id}-production`}
        value={values.IsProduction}
        yes="Production"
        no="Test"
        disabled={disabled}
        onChange={(v) => set('IsProduction', v)}
      />
      <Choice
        legend="Allows Image"
        name={`${id}-image`}
        value={values.AllowsImage}
        yes="Allows"
        no="Deny"
        disabled={disabled}
        // Spec §4: Deny disables the matching input and clears its value.
        onChange={(v) =>
          onChange({
            ...values,
            AllowsImage: v,
            PictureLevel: v ? values.PictureLevel || DEFAULT_PICTURE_LEVEL : '',
          })
        }
      >
        <TextField
          id={`${id}-picture`}
          name="PictureLevel"
          label="Picture Level"
          value={values.PictureLevel}
          error={errors.PictureLevel}
          disabled={disabled || !values.AllowsImage}
          hint={values.AllowsImage ? 'Per Property: each parcel shows its own photos.' : undefined}
          onChange={(v) => set('PictureLevel', v)}
        />
      </Choice>
      <Choice
        legend="Allows Payment link"
        name={`${id}-payment`}
        value={values.AllowPaymentLink}
        yes="Allows"
        no="Deny"
        disabled={disabled}
        onChange={(v) =>
          onChange({ ...values, AllowPaymentLink: v, PaymentLink: v ? values.PaymentLink : '' })
        }
      >
        <TextField
          id={`${id}-paylink`}
          name="PaymentLink"
          label="Payment Link"
          type="url"
          value={values.PaymentLink}
          error={errors.PaymentLink}
          disabled={disabled || !values.AllowPaymentLink}
          hint={
            values.AllowPaymentLink
              ? 'The Pay Now address; the parcel’s account is added at the end.'
              : undefined
          }
          onChange={(v) => set('PaymentLink', v)}
        />
      </Choice>
      <Choice
        legend="Owner names"
        name={`${id}-owners`}
        value={values.PublishOwnerNames}
        yes="Publish"
        no="Withhold"
        disabled={disabled}
        hint="Withhold: no owner name or mailing address of any parcel is shown, exported or searchable."
        onChange={(v) => set('PublishOwnerNames', v)}
      />
      <Choice
        legend="Owner name search"
        name={`${id}-owner-search`}
        value={values.OwnerNameSearch}
        yes="Allow"
        no="Deny"
        disabled={disabled || !values.PublishOwnerNames}
        hint="Deny: names are shown on records, but searching for a name finds nothing."
        onChange={(v) => set('OwnerNameSearch', v)}
      />
    </div>
  );
}

interface TextFieldProps {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  required?: boolean;
  disabled?: boolean;
  type?: 'text' | 'url';
  list?: string;
  autoComplete?: string;
}

function TextField({
  id,
  name,
  label,
  value,
  onChange,
  error,
  hint,
  required,
  disabled,
  type,
  list,
  autoComplete,
}: TextFieldProps) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={`usa-form-group${error ? ' usa-form-group--error' : ''}`}>
      <label className={`usa-label${error ? ' usa-label--error' : ''}`} htmlFor={id}>
        {label}
        {required ? (
          <>
            {' '}
            <abbr title="required" className="usa-hint usa-hint--required">
              *
            </abbr>
          </>
        ) : null}
      </label>
      {hint ? (
        <div className="usa-hint" id={`${id}-hint`}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <span className="usa-error-message" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
      <input
        className={`usa-input${error ? ' usa-input--error' : ''}`}
        id={id}
        name={name}
        type={type ?? 'text'}
        value={value}
        list={list}
        autoComplete={autoComplete ?? 'off'}
        required={required}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

interface ChoiceProps {
  legend: string;
  name: string;
  value: boolean;
  yes: string;
  no: string;
  onChange: (value: boolean) => void;
  disabled?: boolean;
  /** A line under the legend saying what the choice does. */
  hint?: string;
  children?: ReactNode;
}

/** A two-way toggle as a radio pair (keyboard: arrow keys), with its dependent input below. */
function Choice({ legend, name, value, yes, no, onChange, disabled, hint, children }: ChoiceProps) {
  return (
    <fieldset className="usa-fieldset margin-top-3" aria-describedby={hint ? `${name}-hint` : undefined}>
      <legend className="usa-legend">{legend}</legend>
      {hint ? (
        <div className="usa-hint" id={`${name}-hint`}>
          {hint}
        </div>
      ) : null}
      <div className="opp-choice">
        {[
          { label: yes, v: true },
          { label: no, v: false },
        ].map((o) => (
          <div className="usa-radio" key={o.label}>
            <input
              className="usa-radio__input"
              id={`${name}-${o.v ? 'yes' : 'no'}`}
              type="radio"
              name={name}
              checked={value === o.v}
              disabled={disabled}
              onChange={() => onChange(o.v)}
            />
            <label className="usa-radio__label" htmlFor={`${name}-${o.v ? 'yes' : 'no'}`}>
              {o.label}
            </label>
          </div>
        ))}
      </div>
      {children}
    </fieldset>
  );
}
