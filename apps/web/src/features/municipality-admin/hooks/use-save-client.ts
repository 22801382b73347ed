import { DEFAULT_TITLE, type PublicClient } from '@opp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteBanner, replaceBanner, uploadBanner } from '@/features/images/api/banner';
import { bannerStep, type BannerChoice } from '@/features/images/utils/banner-choice';
import { updateClient } from '../api/admin-client';

export interface ClientDraft {
  title: string;
  city: string;
  banner: BannerChoice;
}

/**
 * Spec §4 banner save, then the client patch: replace, create or delete the banner image first, then
 * PATCH the client with City, Description (title + city) and the resulting BannerImage.
 */
export async function saveClient(client: PublicClient, draft: ClientDraft): Promise<PublicClient> {
  const step = bannerStep(client.BannerImage, draft.banner);
  let banner = client.BannerImage;
  if (step.op === 'create') banner = (await uploadBanner(client.ClientID, step.file)).BannerImage;
  else if (step.op === 'replace')
    banner = (await replaceBanner(step.current, client.ClientID, step.file)).BannerImage;
  else if (step.op === 'delete') {
    await deleteBanner(step.current);
    banner = null;
  }
  const city = draft.city.trim().replace(/\s+/g, ' ');
  return updateClient(client.ClientID, {
    City: city,
    Description: `${draft.title || DEFAULT_TITLE} ${city}`,
    BannerImage: banner,
  });
}

export function useSaveClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ client, draft }: { client: PublicClient; draft: ClientDraft }) =>
      saveClient(client, draft),
    // Public pages of the town (banner, name) must not show the old record from their cache.
    onSettled: () =>
      queryClient.invalidateQueries({
        predicate: (q) => q.queryKey[0] === 'municipality' || q.queryKey[0] === 'admin-client',
      }),
  });
}
