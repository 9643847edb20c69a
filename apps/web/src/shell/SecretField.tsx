import type { ReactNode, Ref } from 'react';
import { CopyButton } from './CopyButton.tsx';

/**
 * A value shown once (an API key, a personal token, an invitation link): read-only, selected on
 * focus, with a Copy button and whatever actions follow it (e.g. "Done, hide the key").
 */
export function SecretField(props: {
  label: string;
  value: string;
  copyLabel: string;
  inputRef?: Ref<HTMLInputElement>;
  children?: ReactNode;
}) {
  return (
    <>
      <label>
        {props.label}
        <input
          ref={props.inputRef}
          className="secret"
          readOnly
          value={props.value}
          onFocus={(e) => e.target.select()}
        />
      </label>
      <div className="row">
        <CopyButton text={props.value} label={props.copyLabel} />
        {props.children}
      </div>
    </>
  );
}
