// The settings dialog: provider (Anthropic or an OpenAI-compatible server), base URL, model, API key
// (kept in the desktop keyring or an owner-only file, never in a project; the field shows where the key
// in use comes from and never shows the key), theme and font size, and the spending budget (per day, per month,
// warn only or stop). Saving applies the connection and the budget to every open session at once; a bad budget is
// named and nothing is saved. Esc closes without saving.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { SavedSettings } from '../../generated/app';
import type { AppSettings, AppSettingsUpdate, KeySource, Theme } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { useLoad } from '../../hooks/useLoad';
import { budgetForm, parseBudget, type BudgetField, type BudgetForm } from '../../state/budgetForm';
import { ErrorBanner } from '../common/ErrorBanner';
import { BudgetFields } from './BudgetFields';
import { Modal, ModalTitle } from './Modal';

export type SettingsDialogProps = {
  load: () => Promise<AppSettings>;
  save: (update: AppSettingsUpdate) => Promise<SavedSettings>;
  onSaved: (saved: SavedSettings) => void;
  onClose: () => void;
};

const KEY_SOURCES: Record<KeySource, string> = {
  keyring: 'A key is saved in the desktop keyring.',
  credentials_file: 'A key is saved in Tandem’s credentials file (readable by you only).',
  settings_file: 'A key is in the settings file itself; saving a new one moves it out.',
  environment: 'The key comes from the environment, which wins over a saved one.',
  none: 'No key is saved.',
};

/**
 * What an empty Base URL field means: the URL in use when the environment sets it (nothing saved counts then),
 * else the provider's default.
 */
function urlPlaceholder(loaded: AppSettings, provider: string): string {
  const fromEnv = loaded.overridden_by_env.find((name) => name.endsWith('_BASE_URL'));
  if (fromEnv && provider === loaded.provider) return `${loaded.base_url_in_use} (from ${fromEnv})`;
  return DEFAULT_URLS[provider] ?? '';
}

const DEFAULT_URLS: Record<string, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'http://localhost:11434',
};

/** The editable part of the settings. */
function formOf({ provider, base_url, model, theme, font_size, notifications }: AppSettings): AppSettingsUpdate {
  return { provider, base_url, model, theme, font_size, notifications };
}

export function SettingsDialog({ load, save, onSaved, onClose }: SettingsDialogProps) {
  const firstRef = useRef<HTMLSelectElement>(null);
  const settings = useLoad(load);
  const loaded = settings.data;
  /** The form as the person changed it; the loaded settings until then. */
  const [edited, setEdited] = useState<AppSettingsUpdate | null>(null);
  const form = edited ?? (loaded ? formOf(loaded) : null);
  const [key, setKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  /** The budget fields as the person typed them; the loaded budget until then. */
  const [editedBudget, setEditedBudget] = useState<BudgetForm | null>(null);
  const budget = editedBudget ?? (loaded ? budgetForm(loaded.budget) : null);
  const [invalidBudget, setInvalidBudget] = useState<BudgetField | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const error = saveError ?? settings.error;
  const [saving, setSaving] = useState(false);

  const ready = form !== null;
  useEffect(() => {
    if (ready) firstRef.current?.focus();
  }, [ready]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form || !budget || saving) return;
    const parsed = parseBudget(budget);
    if (!parsed.ok) {
      setInvalidBudget(parsed.field);
      setSaveError(parsed.error);
      return;
    }
    setInvalidBudget(null);
    setSaving(true);
    setSaveError(null);
    const update: AppSettingsUpdate = { ...form, budget: parsed.limits };
    if (removeKey) update.api_key = '';
    else if (key.trim() !== '') update.api_key = key.trim();
    try {
      onSaved(await save(update));
    } catch (cause) {
      setSaveError(errorMessage(cause));
    } finally {
      setSaving(false);
    }
  };
  const change = <K extends keyof AppSettingsUpdate>(name: K, value: AppSettingsUpdate[K]) =>
    setEdited((previous) => {
      const base = previous ?? (loaded ? formOf(loaded) : null);
      return base ? { ...base, [name]: value } : base;
    });

  return (
    <Modal className="settings-dialog" onEscape={onClose} onSubmit={(event) => void submit(event)} data-testid="settings-dialog">
      <header className="modal-header">
        <ModalTitle className="modal-title">
          Settings
        </ModalTitle>
      </header>
      {error && <ErrorBanner message={error} />}
      {form && loaded && (
        <div className="settings-fields">
          <fieldset className="settings-group">
            <legend>Model</legend>
            <label className="settings-field">
              <span>Provider</span>
              <select
                ref={firstRef}
                data-testid="settings-provider"
                value={form.provider}
                onChange={(event) => change('provider', event.target.value)}
              >
                <option value="anthropic">Anthropic (Messages API)</option>
                <option value="openai">OpenAI-compatible server (Ollama, llama.cpp, vLLM)</option>
              </select>
            </label>
            <label className="settings-field">
              <span>Base URL</span>
              <input
                type="url"
                data-testid="settings-base-url"
                value={form.base_url}
                placeholder={urlPlaceholder(loaded, form.provider)}
                onChange={(event) => change('base_url', event.target.value)}
              />
            </label>
            <label className="settings-field">
              <span>Model</span>
              <input
                type="text"
                data-testid="settings-model"
                value={form.model}
                placeholder={form.provider === 'openai' ? 'a model the server serves, e.g. qwen3' : 'claude-sonnet-4-5'}
                onChange={(event) => change('model', event.target.value)}
              />
            </label>
            <label className="settings-field">
              <span>API key</span>
              <input
                type="password"
                autoComplete="off"
                data-testid="settings-api-key"
                value={key}
                disabled={removeKey}
                placeholder={loaded.key_saved ? 'leave empty to keep the saved key' : 'paste a key to save it'}
                onChange={(event) => setKey(event.target.value)}
              />
            </label>
            <p className="settings-note" data-testid="settings-key-source">
              {KEY_SOURCES[loaded.key_source]}
              {(loaded.key_source === 'keyring' || loaded.key_source === 'credentials_file') && (
                <label className="settings-inline">
                  <input type="checkbox" data-testid="settings-remove-key" checked={removeKey} onChange={(event) => setRemoveKey(event.target.checked)} />
                  Remove it
                </label>
              )}
            </p>
            {loaded.overridden_by_env.length > 0 && (
              <p className="settings-note settings-warning" data-testid="settings-env">
                Set in the environment, winning over what is saved here: {loaded.overridden_by_env.join(', ')}.
              </p>
            )}
          </fieldset>
          <fieldset className="settings-group">
            <legend>Window</legend>
            <label className="settings-field">
              <span>Theme</span>
              <select data-testid="settings-theme" value={form.theme} onChange={(event) => change('theme', event.target.value as Theme)}>
                <option value="dark">Dark</option>
                <option value="light">Light</option>
                <option value="system">Follow the desktop</option>
              </select>
            </label>
            <label className="settings-field">
              <span>Font size</span>
              <input
                type="number"
                min={10}
                max={24}
                data-testid="settings-font-size"
                value={form.font_size}
                onChange={(event) => change('font_size', Number(event.target.value))}
              />
            </label>
            <label className="settings-field settings-switch">
              <input
                type="checkbox"
                data-testid="settings-notifications"
                checked={form.notifications ?? true}
                onChange={(event) => change('notifications', event.target.checked)}
              />
              <span>Notify me when Tandem waits for me or finishes while the window is in the background</span>
            </label>
          </fieldset>
          {budget && <BudgetFields form={budget} onChange={setEditedBudget} invalid={invalidBudget} />}
          <p className="settings-note dim">Saved in {loaded.file}.</p>
        </div>
      )}
      <footer className="modal-footer">
        <button type="button" className="button" data-testid="settings-cancel" onClick={onClose}>
          Cancel <kbd>Esc</kbd>
        </button>
        <button type="submit" className="button button-primary" data-testid="settings-save" disabled={!form || saving}>
          Save
        </button>
      </footer>
    </Modal>
  );
}
