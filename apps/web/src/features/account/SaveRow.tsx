/** A form's submit button with the sentence it says once the save went through (announced). */
export function SaveRow(props: { label: string; busy: boolean; done: string | false }) {
  return (
    <div className="save-row">
      <button type="submit" className="primary" disabled={props.busy}>
        {props.label}
      </button>
      <p role="status" className="ok-text">
        {props.done || ''}
      </p>
    </div>
  );
}
