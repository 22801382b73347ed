import { Link } from 'react-router';
import { ChevronLeftIcon, ChevronRightIcon, PrintIcon } from '@/components/ui/icons';
import type { ResultPosition } from '@/features/search/hooks/use-result-position';
import { formatCount } from '@/utils/format';
import { paymentUrl } from '@/utils/links';

export interface PropertyBottomBarProps {
  searchHref: string;
  /** Where the record sits in the stored search's whole result set; null hides Previous/Next (spec §4). */
  position: ResultPosition | null;
  /** Null hides Pay Now. */
  payHref: string | null;
  /** The amount Pay Now settles ("$1,234.56"), said on the button. */
  due?: string;
}

/** Pay Now only when the town allows it and tax is outstanding (spec §4). */
export function payNowHref(
  client: { AllowPaymentLink: boolean; PaymentLink: string },
  totalTaxOutstanding: number | null,
  account: string,
): string | null {
  if (!client.AllowPaymentLink || totalTaxOutstanding === null || !(totalTaxOutstanding > 0)) return null;
  return paymentUrl(client.PaymentLink, account);
}

/** Spec §2 bottom bar: Return to search, Previous/Next with "n of N", the print hint, Pay Now. */
export function PropertyBottomBar({ searchHref, position, payHref, due }: PropertyBottomBarProps) {
  const prev = position?.previous ?? null;
  const next = position?.next ?? null;
  return (
    <nav className="opp-bottombar opp-no-print" aria-label="Record navigation">
      <div className="opp-bottombar__inner">
        <Link className="usa-button usa-button--outline opp-bottombar__btn" to={searchHref}>
          Return to search
        </Link>
        {position ? (
          <div className="opp-bottombar__nav">
            {prev ? (
              <Link
                className="usa-button usa-button--outline opp-bottombar__btn"
                to={prev.href}
                onClick={prev.onFollow}
                aria-label="Previous property"
              >
                <ChevronLeftIcon size={20} /> <span className="opp-bottombar__label">Previous</span>
              </Link>
            ) : (
              <span
                className="usa-button usa-button--outline opp-bottombar__btn is-disabled"
                aria-hidden="true"
              >
                <ChevronLeftIcon size={20} /> <span className="opp-bottombar__label">Previous</span>
              </span>
            )}
            <span className="opp-bottombar__pos">
              <span className="opp-visually-hidden">Result </span>
              {formatCount(position.number)} of {formatCount(position.total)}
            </span>
            {next ? (
              <Link
                className="usa-button usa-button--outline opp-bottombar__btn"
                to={next.href}
                onClick={next.onFollow}
                aria-label="Next property"
              >
                <span className="opp-bottombar__label">Next</span> <ChevronRightIcon size={20} />
              </Link>
            ) : (
              <span
                className="usa-button usa-button--outline opp-bottombar__btn is-disabled"
                aria-hidden="true"
              >
                <span className="opp-bottombar__label">Next</span> <ChevronRightIcon size={20} />
              </span>
            )}
          </div>
        ) : null}
        <p className="opp-bottombar__hint">
          <PrintIcon size={18} /> To Print To PDF, press CTRL and P
        </p>
        {payHref ? (
          <a
            className="usa-button opp-bottombar__btn opp-paynow"
            href={payHref}
            target="_blank"
            rel="noopener noreferrer"
          >
            Pay Now{due ? <span className="opp-paynow__due">{due} due</span> : null}
            <span className="opp-visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : null}
      </div>
    </nav>
  );
}
