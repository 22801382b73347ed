import { useEffect, useId, useRef, useState } from 'react';
import { IMAGE_ACCEPT } from '@opp/contracts';
import { fileImageUrl } from '@/utils/links';
import { checkBannerFile, type BannerChoice } from '../utils/banner-choice';

export interface BannerUploadProps {
  /** The stored banner's file name, or null. */
  current: string | null;
  value: BannerChoice;
  onChange: (choice: BannerChoice) => void;
  /** Accessible text for the preview ("Banner of Harrison, Maine"). */
  alt: string;
}

/** Spec §2 Banner Image field: png/jpeg/jpg upload with a preview and a Remove button. */
export function BannerUpload({ current, value, onChange, alt }: BannerUploadProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  const newFile = value.kind === 'new' ? value.file : null;

  useEffect(() => {
    if (!newFile) {
      setObjectUrl(null);
      return;
    }
    const url = URL.createObjectURL(newFile);
    setObjectUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [newFile]);

  const preview = newFile ? objectUrl : value.kind === 'keep' && current ? fileImageUrl(current) : null;

  return (
    <div className="usa-form-group">
      <label className="usa-label" htmlFor={`${id}-file`}>
        Banner Image
      </label>
      <span className="usa-hint" id={`${id}-hint`}>
        PNG or JPEG (.png, .jpeg, .jpg), at most 5 MB.
      </span>
      {error ? (
        <span className="usa-error-message" id={`${id}-error`} role="alert">
          {error}
        </span>
      ) : null}
      <input
        ref={inputRef}
        id={`${id}-file`}
        className="usa-file-input"
        type="file"
        accept={IMAGE_ACCEPT}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) return;
          const problem = checkBannerFile(file);
          setError(problem);
          if (problem) {
            e.target.value = '';
            return;
          }
          onChange({ kind: 'new', file });
        }}
      />
      <div className="opp-banner-preview margin-top-2">
        {preview ? (
          <img src={preview} alt={`${alt} (preview)`} className="opp-banner-preview__img" />
        ) : (
          <p className="opp-banner-preview__empty">No banner image: the town’s name is shown instead.</p>
        )}
      </div>
      {preview ? (
        <button
          type="button"
          className="usa-button usa-button--outline margin-top-1"
          onClick={() => {
            if (inputRef.current) inputRef.current.value = '';
            setError(null);
            onChange({ kind: 'remove' });
            inputRef.current?.focus();
          }}
        >
          Remove banner image
        </button>
      ) : null}
      <p className="opp-visually-hidden" role="status">
        {value.kind === 'new' ? `${value.file.name} selected; it is uploaded when you save.` : ''}
        {value.kind === 'remove' && current ? 'The banner image is removed when you save.' : ''}
      </p>
    </div>
  );
}
