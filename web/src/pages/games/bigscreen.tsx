import { useParams } from 'react-router'
import { BigScreen } from '@/features/bigscreen/bigscreen-view'

/** The projector's scoreboard: full screen, outside the site's frame. */
export default function BigScreenPage() {
  const { id } = useParams()
  return <BigScreen gameId={Number(id)} />
}
