import { useParams } from 'react-router'
import { GameHome } from '@/features/game/components/game-home'

export default function GamePage() {
  const { id } = useParams()
  return <GameHome id={Number(id)} />
}
