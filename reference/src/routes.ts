// The route table: which resource a path below the base path names, and which methods it has.

export type Route = { readonly name: 'pets' } | { readonly name: 'pet'; readonly petId: string };

/** The Allow header of each resource (HEAD comes with GET, as RFC 9110 expects). */
export const ALLOWED_METHODS: Record<Route['name'], string> = {
  pets: 'GET, HEAD, POST',
  pet: 'GET, HEAD',
};

const PETS: Route = { name: 'pets' };

/**
 * Matches a path relative to the base path. The petId segment is percent-decoded; a segment
 * that does not decode is passed on as sent (it then fails the petId check with 400, which is
 * more helpful than 404). Anything else, trailing slashes included, names no resource.
 */
export function matchRoute(path: string | undefined): Route | undefined {
  if (path === '/pets') return PETS;
  if (path === undefined || !path.startsWith('/pets/')) return undefined;
  const segment = path.slice('/pets/'.length);
  if (segment === '' || segment.includes('/')) return undefined;
  let petId = segment;
  try {
    petId = decodeURIComponent(segment);
  } catch {
    // keep the raw segment
  }
  return { name: 'pet', petId };
}
