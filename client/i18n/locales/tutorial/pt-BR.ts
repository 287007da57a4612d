/** Português (Brasil): as palavras do tutorial (#/tutorial). Mesmas chaves de tutorial/en.ts. */
import type { TutorialTranslation } from '../types';

const ptBRTutorial: TutorialTranslation = {
  title: 'Tutorial: sua primeira rodada',
  progress: 'Passo {{n}} de {{total}}',
  next: 'Próximo',
  restart: 'Recomeçar',
  yourMove: 'Sua vez: a jogada sugerida está destacada.',
  thinking: 'Nixon (o computador) está respondendo…',
  playOn: 'Continuar contra o computador',
  playingOn: 'Você continua contra o computador (fácil). Agora todas as escolhas são suas.',
  newGame: 'Jogar uma nova partida',
  readRules: 'Ler as regras',
  steps: {
    welcome: {
      title: 'Bem-vindo a Watergate',
      body: 'Você é o Editor do Washington Post; o computador joga com a Administração Nixon. Você vence ligando dois informantes à foto de Nixon, no centro do quadro, por meio de fichas de evidência viradas para cima. Nixon vence ao juntar 5 marcadores de impulso.\nJunto ao quadro estão a trilha de investigação, com a sua ponta mais perto de você, e a sua mão. O que chega ao seu extremo da trilha (casa 5) é seu. Nesta rodada você joga suas cartas uma a uma e o computador responde a cada uma. Cada passo diz o que fazer e destaca a jogada.',
    },
    value: {
      title: 'Jogue uma carta pelo valor',
      body: 'A cada vez você joga uma carta, pelo valor ou pela ação. O valor (o número no canto) move um marcador exatamente esse número de casas para o seu lado da trilha.\nSelecione {{card}} na sua mão e escolha o marcador de impulso: ele anda {{value}} casas na sua direção. Um marcador de impulso que chega à casa 5 de um jogador vai para esse jogador; Nixon precisa de 5 deles para vencer.',
    },
    reaction: {
      title: 'Reaja à jogada de Nixon',
      body: 'Nixon jogou {{nixonCard}} pelo valor em uma ficha de evidência, para puxá-la para o lado dele. Algumas cartas são reações: você as joga na hora, fora da sua vez, e elas não lhe custam a vez.\nJogue {{card}}: a jogada de Nixon é cancelada e a mesma ficha anda {{steps}} casas na sua direção.',
    },
    ask: {
      title: 'A pergunta do Editor',
      body: 'As fichas de evidência viradas para baixo na casa 0 só Nixon pode ver. Para mover uma, você pergunta: joga uma carta pelo valor e diz uma cor. Se houver na trilha uma ficha virada para baixo dessa cor, Nixon tem de desvirá-la e ela anda na sua direção; se não houver, você move outro marcador.\nSelecione {{card}} e pergunte por {{colour}}.',
    },
    event: {
      title: 'Use um evento pela ação',
      body: 'Nixon acabou de usar um evento pela ação: a foto de {{nixonInformant}} está agora virado para baixo no quadro, perdido para você por enquanto. Os seus eventos podem recrutar informantes.\nSelecione {{card}} e use a ação: a foto de {{informant}} é fixado virado para cima. Um evento usado pela ação sai do jogo; Nixon poderia tê-lo cancelado com uma reação.',
    },
    pin: {
      title: 'Ganhe uma ficha de evidência e fixe-a',
      body: '{{nixonCard}}, de Nixon, empurrou a sua {{token}} uma casa para trás. Leve-a até o fim: jogue {{card}} pelo valor nela. Uma ficha de evidência que chega à sua casa 5 é ganha na hora, e você a fixa num espaço vazio da cor dela no quadro. As suas ficam viradas para cima, as de Nixon para baixo.\nFixe-a no espaço amarelo sugerido, ao lado da foto de Nixon: dali, mais uma ficha virada para cima ligaria {{informant}} a Nixon.',
    },
    assessment: {
      title: 'A avaliação',
      body: 'Quando as duas mãos se esvaziam, a rodada termina com a avaliação: as fichas na casa 0 voltam para o saco; os marcadores de iniciativa e de impulso vão para o jogador em cujo lado estão; novos são postos na casa 0; depois cada jogador ganha as fichas de evidência do seu lado (casas 1 a 4) e as fixa, primeiro quem tem a iniciativa.\nNixon joga a última carta e fixa as fichas dele viradas para baixo. Depois fixe a sua {{token}} no espaço sugerido.',
    },
    informants: {
      title: 'Informantes e fios',
      body: 'Olhe o quadro: {{informant}} é seu informante, virado para cima. Fios ligam os informantes, os espaços de evidência e a foto de Nixon. Um caminho só conta por fichas de evidência viradas para cima: um espaço vazio ou uma ficha virada para baixo o corta.\nNixon tenta cortar seus caminhos: fixa fichas viradas para baixo, remove fichas e vira informantes.',
    },
    win: {
      title: 'Duas maneiras de vencer',
      body: 'O Editor vence no momento em que dois informantes virados para cima estão, cada um, ligados à foto de Nixon só por fios e fichas de evidência viradas para cima (os dois caminhos podem compartilhar fichas).\nNixon vence no momento em que tem 5 marcadores de impulso, ou na avaliação quando não resta nenhum marcador de impulso na reserva.',
    },
    done: {
      title: 'Você jogou uma rodada inteira',
      body: 'O jogo continua assim, rodada após rodada, até que um de vocês vença. Continue contra o computador daqui, ou comece uma nova partida no saguão; a página de regras explica cada carta.',
    },
  },
};

export default ptBRTutorial;
