import { mailingLines, type MailingAddress } from '@opp/contracts/addresses';

/** An owner's name and mailing address, as the record page and the abutters list show them. */
export function OwnerAddress({
  owner,
  className,
}: {
  owner: MailingAddress & { OwnerName: string };
  className: string;
}) {
  return (
    <address className={className}>
      <strong>{owner.OwnerName}</strong>
      {mailingLines(owner).map((line, j) => (
        <span key={j} className="display-block">
          {line}
        </span>
      ))}
    </address>
  );
}
