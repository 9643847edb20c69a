import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_COLOR, isHex, labelOf, type Position, textOn } from './types.ts';

type Props = {
  assistantName: string;
  color: string;
  position: Position;
  /** Already resolved: the widget's own message, else the assistant's (docs/widget.md). */
  welcome: string | null;
  leadForm: { fields: string[]; required: string[] } | null;
  enabled: boolean;
};

const CHAT = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z';
const SEND = 'M3 20.5 21 12 3 3.5V10l12 2-12 2z';
const CLOSE = 'M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12z';

const Icon = ({ d, size = 20 }: { d: string; size?: number }) => (
  <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
    <path d={d} fill="currentColor" />
  </svg>
);

/**
 * A faithful mock of the embeddable widget (apps/widget: view.ts, styles.ts, lead-form.ts) drawn
 * with React from the unsaved form: launcher and open panel in the chosen colour and corner, the
 * welcome message, the lead form when on. Nothing here is interactive and /widget.js is not
 * loaded on the dashboard's origin. The caption is in the dashboard's language; the mock's own
 * text stays English (docs/decisions/0044-dashboard-languages.md).
 */
export function WidgetPreview(props: Props & { children?: ReactNode }) {
  const { assistantName, color, position, welcome, leadForm, enabled, children } = props;
  const { t } = useTranslation('widget');
  const c = isHex(color) ? color.trim() : DEFAULT_COLOR;
  const vars = { '--p': c, '--pt': textOn(c) } as CSSProperties;
  const name = assistantName || 'Chat';
  return (
    <figure className="wp" aria-labelledby="wp-caption">
      <figcaption id="wp-caption">
        <strong>{t('preview.caption')}</strong> <span className="muted">{t('preview.captionHint')}</span>
      </figcaption>
      <div className="wp-frame" data-position={position}>
        <p className="wp-site muted" aria-hidden="true">
          {t('preview.site')}
        </p>
        <div className={`wp-root${position === 'bottom-left' ? ' left' : ''}`} style={vars}>
          <div className="wp-panel">
            <div className="wp-header">
              <span className="wp-title">{name}</span>
              <span className="wp-x">
                <Icon d={CLOSE} />
              </span>
            </div>
            <div className="wp-log">
              {welcome && <div className="wp-msg wp-bot">{welcome}</div>}
              {leadForm && leadForm.fields.length > 0 && (
                <div className="wp-card">
                  <span className="wp-card-title">Leave your details</span>
                  <span className="wp-note">So we can follow up if we can't solve this right away.</span>
                  {leadForm.fields.map((f) => (
                    <span key={f} className="wp-field">
                      <span className="wp-label">
                        {labelOf(f)}
                        {leadForm.required.includes(f) ? ' *' : ''}
                      </span>
                      <span className="wp-box" />
                    </span>
                  ))}
                  <span className="wp-row">
                    <span className="wp-btn">Send</span>
                    <span className="wp-btn wp-ghost">Not now</span>
                  </span>
                </div>
              )}
            </div>
            <div className="wp-compose">
              <span className="wp-input">Type your message…</span>
              <span className="wp-send">
                <Icon d={SEND} />
              </span>
            </div>
          </div>
          <div className="wp-launcher">
            <Icon d={CHAT} size={26} />
          </div>
        </div>
      </div>
      {!enabled && <p className="muted wp-off">{t('preview.off')}</p>}
      {children}
    </figure>
  );
}
