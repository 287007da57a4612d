/**
 * English words of the tutorial (#/tutorial), under `tutorial.*`: loaded with its page only. A step's
 * body may have several paragraphs, split at "\n". Names in {{…}} come from the game data in the
 * chosen language (client/tutorial/TutorialPage.tsx).
 */
const enTutorial = {
  title: 'Tutorial: your first round',
  progress: 'Step {{n}} of {{total}}',
  next: 'Next',
  restart: 'Start again',
  yourMove: 'Your move: the suggested choice is highlighted.',
  thinking: 'Nixon (the computer) is answering…',
  playOn: 'Play on against the computer',
  playingOn: 'You are playing on against the computer (easy). Every choice is yours now.',
  newGame: 'Play a new game',
  readRules: 'Read the rules',
  steps: {
    welcome: {
      title: 'Welcome to Watergate',
      body: 'You are the Editor of the Washington Post; the computer plays the Nixon Administration. You win by linking two informants to Nixon’s picture, in the middle of the board, through face-up evidence. Nixon wins by collecting 5 momentum tokens.\nNext to the board are the research track, your end of it nearest you, and your hand. Whatever reaches your end of the track (space 5) is yours. In this round you play your cards one by one and the computer answers each of them. Every step says what to do and highlights the move.',
    },
    value: {
      title: 'Play a card for its value',
      body: 'Each turn you play one card, either for its value or for its action. The value (the number in its corner) moves one token exactly that many spaces toward your side of the track.\nSelect {{card}} in your hand and choose the momentum token: it moves {{value}} spaces toward you. A momentum token that reaches a player’s space 5 goes to that player; Nixon needs 5 of them to win.',
    },
    reaction: {
      title: 'React to Nixon’s move',
      body: 'Nixon played {{nixonCard}} for its value on an evidence token, to pull it to his side. Some cards are reactions: you play them at once, out of turn, and they cost you no turn.\nPlay {{card}}: Nixon’s move is cancelled and the same token moves {{steps}} spaces toward you instead.',
    },
    ask: {
      title: 'The Editor’s ask',
      body: 'The face-down tokens on space 0 are evidence only Nixon can see. To move one, you ask: you play a card for its value and name a colour. If a face-down token of that colour is on the track, Nixon must turn it up and it moves toward you; if not, you move another token instead.\nSelect {{card}} and ask for {{colour}}.',
    },
    event: {
      title: 'Use an event for its action',
      body: 'Nixon has just used an event for its action: {{nixonInformant}}’s picture is now face down on the board, lost to you for the moment. Your events can recruit informants.\nSelect {{card}} and use its action: the picture of {{informant}} is pinned face up. An event used for its action leaves the game; Nixon could have cancelled it with a reaction of his own.',
    },
    pin: {
      title: 'Gain evidence and pin it',
      body: 'Nixon’s {{nixonCard}} pushed your {{token}} back one space. Push it home: play {{card}} for its value on it. An evidence token that reaches your space 5 is gained at once, and you pin it on an empty space of its colour on the board. Yours lie face up, Nixon’s face down.\nPin it on the suggested yellow space beside Nixon’s picture: from there one more face-up token would link {{informant}} to Nixon.',
    },
    assessment: {
      title: 'The assessment',
      body: 'When both hands are empty, the round ends with the assessment: evidence on space 0 goes back into the bag; the initiative and momentum tokens go to the player on whose side they stand; new ones are put on space 0; then each player gains the evidence on their side (spaces 1 to 4) and pins it, the initiative holder first.\nNixon plays his last card and pins his evidence face down. Then pin your {{token}} on the suggested space.',
    },
    informants: {
      title: 'Informants and threads',
      body: 'Look at the board: {{informant}} is your informant, face up. Threads join the informants, the evidence spaces and Nixon’s picture. A path counts only through face-up evidence: an empty space or a face-down token cuts it.\nNixon tries to cut your paths: he pins face down, removes evidence and turns informants over.',
    },
    win: {
      title: 'Two ways to win',
      body: 'The Editor wins the moment two face-up informants are each linked to Nixon’s picture through threads and face-up evidence only (the two paths may share evidence).\nNixon wins the moment he holds 5 momentum tokens, or at the assessment when no momentum token is left in the supply.',
    },
    done: {
      title: 'You have played a whole round',
      body: 'The game goes on like this, round after round, until one of you wins. Play on against the computer from here, or start a new game from the lobby; the rules page explains every card.',
    },
  },
};

export default enTutorial;
export type TutorialMessages = typeof enTutorial;
