import type { ComponentProps } from 'react';
import { ChannelField } from '../../shell/ChannelForm.tsx';
import type { Draft, FieldErrors } from './types.ts';

/** A field of the email settings form (shell/ChannelForm.tsx), its error read from `errors`. */
export function Field(
  props: Omit<ComponentProps<typeof ChannelField>, 'prefix' | 'name' | 'error'> & {
    name: keyof Draft;
    errors: FieldErrors;
  },
) {
  const { errors, ...rest } = props;
  return <ChannelField prefix="email" {...rest} error={errors[props.name]} />;
}
