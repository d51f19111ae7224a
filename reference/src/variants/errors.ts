// Faults in error bodies (section 7), media type (section 1) and base path (section 1).
import { everyReply, without } from './helpers.ts';
import type { Variant } from './types.ts';

const NOT_FOUND_PAGE =
  '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>' +
  '<body><h1>Not Found</h1><p>The requested resource was not found.</p></body></html>\n';

export const errorVariants: Variant[] = [
  {
    name: 'error-missing-code',
    kind: 'fault',
    breaks: 'ERROR-SHAPE',
    description: 'Error bodies lack the code field.',
    apply(s) {
      const renderError = s.renderError;
      s.renderError = (status, code, message) =>
        without(renderError(status, code, message) as Record<string, unknown>, 'code');
    },
  },
  {
    name: 'error-status-string',
    kind: 'fault',
    breaks: 'ERROR-SHAPE',
    description: 'Error.status is written as a string ("401") instead of an integer.',
    apply(s) {
      const renderError = s.renderError;
      s.renderError = (status, code, message) => ({
        ...(renderError(status, code, message) as Record<string, unknown>),
        status: String(status),
      });
    },
  },
  {
    name: 'error-html-404',
    kind: 'fault',
    breaks: 'ERROR-SHAPE',
    description: '404 answers are an HTML page (text/html) instead of an Error.',
    apply(s) {
      everyReply(s, (reply) =>
        reply.status === 404
          ? {
              status: 404,
              headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' },
              text: NOT_FOUND_PAGE,
            }
          : reply,
      );
    },
  },
  {
    name: 'error-status-mismatch',
    kind: 'fault',
    breaks: 'ERROR-STATUS-FIELD',
    description: 'Error.status is always 400, whatever the HTTP status.',
    apply(s) {
      const renderError = s.renderError;
      s.renderError = (_status, code, message) => renderError(400, code, message);
    },
  },
  {
    name: 'media-text-plain',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description: 'Every JSON body is sent with Content-Type text/plain.',
    apply(s) {
      everyReply(s, (reply) =>
        reply.json === undefined
          ? reply
          : { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain' } },
      );
    },
  },
  {
    name: 'base-path-ignored',
    kind: 'fault',
    breaks: 'BASE-V1',
    description:
      'The routes live at the host root (/pets), not under the announced base path (404 Error there).',
    settings: { mountPath: '' },
  },
];
