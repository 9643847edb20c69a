import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorText, Loading } from './ui.tsx';

/**
 * A page for owners and admins only, up to what it shows once read (the website widget, the email
 * and SMS channels, a webhook): to anyone else its heading and the words saying who may see it;
 * to them the loading line while `query` reads, its heading and the error if that fails, and
 * then `children` with what was read. The page reads `query` only when `manager` is true.
 */
export function ManagersOnlyPage<T>(props: {
  manager: boolean;
  /** The page's heading (and navigation), shown above the words or the error. */
  header: ReactNode;
  /** The words for anyone who may not manage the workspace. */
  notAllowed: string;
  query: UseQueryResult<T>;
  children(data: T): ReactNode;
}) {
  const { header, query } = props;
  if (!props.manager) {
    return (
      <section>
        {header}
        <p>{props.notAllowed}</p>
      </section>
    );
  }
  if (query.isPending) return <Loading />;
  if (query.error) {
    return (
      <section>
        {header}
        <ErrorText error={query.error} />
      </section>
    );
  }
  return props.children(query.data);
}
