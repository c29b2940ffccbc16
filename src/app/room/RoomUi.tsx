import { useEffect } from 'react';
import { useApp } from '../store';
import { ActivityPanel } from './ActivityPanel';
import { JoinCard } from './JoinCard';
import { NamePrompt } from './NamePrompt';
import { decorateTopology } from './nodeTags';
import { RoomBar } from './RoomBar';
import { useRoom } from './roomStore';
import './room.css';

/** Everything a room adds to the page (loaded only in a room): the bar, the cards, the node names. */
export default function RoomUi() {
  const members = useRoom((st) => st.members);
  const myNode = useRoom((st) => st.myNode);
  useEffect(() => {
    const decorate = (): void => {
      const topo = document.querySelector('.view-topology');
      if (topo) decorateTopology(topo, members, myNode);
    };
    decorate();
    // After each topology redraw (an engine frame), without re-rendering the room's panels: a
    // render per frame of the bar, the activity and the cards cost a student's tablet for nothing.
    return useApp.subscribe((st, prev) => {
      if (st.frame !== prev.frame) decorate();
    });
  }, [members, myNode]);
  return (
    <>
      <RoomBar />
      <ActivityPanel />
      <JoinCard />
      <NamePrompt />
    </>
  );
}
