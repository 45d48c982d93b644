/**
 * Words to concepts. A message is reduced to the set of concepts its words (after slang
 * expansion, suffix stripping and typo correction) and phrases evoke; intents are scored
 * over concepts and entities, never over whole sentences.
 */
export const CONCEPTS: Record<string, string[]> = {
  LOOKSMAXX: ['looksmaxx', 'looksmax', 'lookmaxx', 'lookmax', 'looksmaxxing', 'looksmaxing', 'looksmaxxed', 'looksmaxed', 'looksmaxxer', 'looksmaxer', 'glowup', 'glow up', 'lasereyes', 'laser eyes', 'laser eye', 'chadify', 'chadded', 'look like', 'be a megachad', 'become a megachad', 'look better', 'look good', 'look hot', 'hotter', 'better looking', 'transform'],
  PORTRAIT: ['portrait', 'pfp', 'picture', 'pic', 'image', 'selfie', 'photo', 'face', 'avatar', 'jpeg', 'jpg', 'art', 'artwork', 'headshot', 'chads'],
  MINT: ['mint', 'generate', 'create', 'make', 'made', 'render', 'produce', 'craft'],
  NFT: ['nft', 'nfts'],
  BURN: ['burn', 'burnt', 'burned', 'incinerate', 'torch', 'destroy', 'dead address', 'dead wallet', 'deadaddress'],
  BUY: ['buy', 'purchase', 'acquire', 'cop', 'ape', 'grab', 'snag', 'swap', 'trade', 'exchange', 'convert', 'sell', 'dump', 'load up', 'pick up'],
  GET: ['get', 'obtain', 'want', 'need', 'give me'],
  STOP: ['stop', 'quit', 'cancel', 'end my'],
  START: ['start', 'begin', 'launch', 'initiate', 'kick off'],
  BRIDGE: ['bridge', 'bridging', 'crosschain', 'cross chain', 'onramp', 'on ramp', 'move', 'transfer', 'port over', 'onto megaeth', 'to megaeth', 'into megaeth', 'over to megaeth'],
  CHAIN_WORD: ['chain', 'network', 'l2', 'megaeth', 'rollup'],
  PRICE: ['price', 'pricey', 'cost', 'worth', 'value', 'rate', 'pricing', 'expensive', 'cheap', 'px', 'valuation', 'trading at', 'going for', 'spot'],
  QUOTE: ['quote', 'quotes'],
  HOW_MUCH: ['how much', 'how many', 'what amount'],
  COST_Q: ['how much', 'how pricey'],
  HOW_MANY: ['how many'],
  NO_ETH: ['without eth', 'no eth', 'dont have eth', 'zero eth', 'without any eth', 'have no eth', 'out of eth'],
  GREETING: ['hello', 'hi', 'hey', 'gm', 'yo', 'sup', 'hola', 'howdy', 'greetings'],
  STATS: ['stats', 'stat', 'statistic', 'statistics', 'supply', 'circulating', 'metrics', 'number', 'numbers', 'total', 'totals', 'tokenomics', 'analytics', 'dashboard', 'so far', 'till now', 'to date', 'overall', 'all time', 'alltime', 'count'],
  BALANCE: ['balance', 'holdings', 'funds', 'bag', 'bags', 'portfolio', 'holding', 'hold'],
  ELIGIBLE: ['eligible', 'eligibility', 'enough', 'afford', 'qualify', 'can i burn', 'able to burn'],
  READY: ['ready'],
  PLAN: ['plan', 'steps', 'flow', 'walkthrough', 'walk me through', 'step by step'],
  MEGAETH: ['megaeth', 'mega eth'],
  OUT: ['out', 'outta'],
  INTENT: ['intent'],
  DEFI: ['defi'],
  BACK: ['back', 'return', 'returned'],
  CHECK: ['check', 'inspect', 'verify', 'scan'],
  WALLET: ['wallet', 'account', 'address', 'addy'],
  GALLERY: ['gallery', 'showcase', 'exhibit', 'collection'],
  RECENT: ['recent', 'recently', 'lately', 'latest', 'newest', 'new', 'last', 'fresh', 'today'],
  SHOW: ['show', 'see', 'view', 'display', 'browse', 'look', 'lemme see', 'list', 'give me', 'pull up', 'browse'],
  PEOPLE: ['people', 'others', 'everyone', 'users', 'community', 'folks'],
  LEADER: ['leaderboard', 'leader', 'chadboard', 'ranking', 'rank', 'ranked', 'top', 'biggest', 'largest', 'most', 'whale', 'winner', 'winning', 'leading', 'lead', 'number one', 'first place', 'numero uno', 'hall of fame', 'podium', 'standings', 'scoreboard'],
  BEST: ['best', 'greatest', 'goat'],
  BURNER: ['burner', 'burners', 'degen', 'degens', 'players', 'chads'],
  REFERRAL: ['referral', 'referal', 'referrals', 'refer', 'referrer', 'referred', 'ref', 'reflink', 'ref link', 'ref code', 'invite', 'affiliate', 'commission', 'kickback', 'referring'],
  EARN: ['earn', 'earned', 'earning', 'earnings', 'income', 'payout', 'paid', 'pay out', 'pay', 'pays'],
  CODE: ['code', 'link'],
  REGISTER: ['register', 'accept', 'registration', 'signup', 'sign up', 'sign me up', 'enroll', 'become', 'join', 'onboard', 'apply', 'enlist'],
  AGENT: ['agent', 'agents', 'bot', 'partner'],
  GASLESS: ['gasless', 'gasfree', 'gas free', 'no gas', 'without gas', 'zero gas', 'free gas', 'meta transaction', 'metatx', 'meta tx', 'sponsor', 'sponsored', 'pay the gas', 'pay gas', 'pay for gas', 'pay my gas', 'cover gas', 'cover the gas', 'dont have gas', 'dont have any gas', 'have no gas', 'no gas money', 'without paying gas', 'relay', 'relayer', 'relayed', 'no eth for gas', 'cant afford gas', 'out of gas'],
  GAS: ['gas', 'fees', 'fee'],
  SIGN: ['sign', 'signature', 'typed data', 'eip712', 'permit'],
  COMPARE: ['compare', 'comparison', 'vs', 'versus', 'diff', 'difference', 'side by side', 'who has more', 'better', 'whos better', 'bigger', 'richer', 'stronger', 'stack up', 'match up', 'or me'],
  MULTI: ['times', 'multiple', 'several', 'batch', 'bulk', 'repeat', 'again and again', 'a bunch'],
  SCHEDULE: ['schedule', 'scheduled', 'recurring', 'recur', 'every day', 'every week', 'every month', 'each week', 'each day', 'daily', 'weekly', 'monthly', 'automate', 'automatic', 'automatically', 'auto', 'dca', 'cron', 'remind', 'periodically', 'routine', 'subscription', 'subscribe', 'on repeat', 'every friday', 'every monday', 'every sunday'],
  ABOUT: ['what is', 'whats', 'explain', 'about', 'tell me', 'describe', 'how does', 'how do', 'help', 'info', 'information', 'docs', 'documentation', 'purpose', 'intro', 'introduce', 'guide', 'tutorial', 'faq', 'what can', 'what do', 'what does', 'what are you', 'talking to', 'who r you', 'who are', 'how it works', 'how this works', 'eli5', 'wtf is', 'meaning'],
  SERVICE: ['megachad', 'service', 'project', 'platform', 'app', 'site', 'this', 'thing', 'you', 'it', 'system'],
  WHO_IS: ['who is', 'whos'],
  IDENTITY: ['profile', 'identity', 'whois', 'lookup', 'look up', 'reputation', 'rep', 'tier', 'stalk', 'dox', 'info on', 'details on', 'details of'],
  STAKE: ['stake', 'staking', 'stakes', 'staked', 'farm', 'farming', 'lock', 'lockup', 'delegate', 'put in', 'restake'],
  DEPOSIT: ['deposit', 'deposited'],
  UNSTAKE: ['unstake', 'unstaking', 'unstaked', 'withdraw', 'withdrawal', 'unlock', 'unbond', 'pull out', 'take out', 'remove', 'exit', 'get out'],
  CLAIM: ['claim', 'harvest', 'collect', 'redeem'],
  REWARD: ['reward', 'rewards', 'yield', 'yields', 'profits'],
  POSITION: ['position', 'positions', 'apr', 'apy', 'my stake', 'staked amount', 'how much staked', 'returns'],
  PENDING: ['pending', 'accrued', 'unclaimed', 'accumulated'],
  LIQUIDITY: ['liquidity', 'lp', 'lper', 'pool', 'pair', 'amm', 'liq'],
  ADD: ['add', 'provide', 'supply', 'put', 'seed'],
  PROPOSAL_ONE: ['proposal'],
  NEWWORD: ['new', 'fresh'],
  PROPOSAL: ['proposal', 'proposals', 'prop', 'props', 'governance', 'gov', 'dao', 'motion', 'proposl', 'proposel'],
  LIST: ['list', 'all', 'active', 'open', 'current', 'any', 'anything', 'live', 'ongoing', 'up for'],
  DETAIL: ['detail', 'details', 'status', 'tally', 'result', 'results', 'state', 'doing', 'progress', 'breakdown'],
  VOTE: ['vote', 'voting', 'voted', 'votes', 'cast', 'ballot', 'abstain', 'in favor', 'in favour', 'yay', 'nay', 'support', 'oppose'],
  QUEUE: ['queue', 'timelock', 'enqueue', 'que'],
  QUEUED: ['queued', 'in queue', 'timelocked'],
  PASSED: ['passed', 'succeeded', 'approved', 'won'],
  EXECUTE: ['execute', 'execution', 'enact', 'finalize', 'exec'],
  RUN: ['run', 'trigger', 'implement', 'carry out'],
  IDEA: ['idea', 'ideas', 'suggestion', 'suggest'],
  PROPOSE: ['propose', 'proposing', 'new proposal', 'make a proposal', 'create a proposal', 'create proposal'],
  SUBMIT: ['submit', 'draft', 'put up', 'put forward', 'raise'],
  VETO: ['veto', 'vetoed', 'vetoing', 'council', 'block', 'kill', 'overrule', 'override'],
  EMISSION: ['emission', 'emissions', 'emit', 'emitted', 'inflation', 'decay', 'issuance', 'release schedule', 'unlock schedule', 'halving', 'emission rate', 'reward schedule', 'distribution'],
  REGISTRY: ['contract', 'contracts', 'registry', 'deployed', 'deployment', 'deployments', 'abi', 'protocols', 'ecosystem', 'directory', 'integrations', 'dapps', 'onchain addresses', 'smart contract'],
  PROTOCOL_WORD: ['protocol'],
  INVENTORY: ['inventory'],
  OWN: ['own', 'owned', 'have', 'hold', 'holding', 'holdings', 'got'],
  BOOST: ['boost', 'boosted', 'multiplier', 'booster'],
  SAFETY: ['safety', 'safe', 'circuit', 'breaker', 'paused', 'pause', 'halt', 'halted', 'risk', 'risky', 'emergency', 'secure', 'security', 'rug', 'scam', 'legit', 'frozen', 'health'],
  ACTIVITY: ['activity', 'activities', 'happening', 'events', 'feed', 'live', 'transactions', 'txs', 'onchain', 'on chain', 'going on', 'pulse'],
  CAN: ['can', 'could', 'able'],
  WHERE: ['where'],
  SELF: ['my', 'me', 'i', 'mine', 'im', 'ive', 'myself'],
  WHO: ['who', 'whom', 'whose'],
  WHEN: ['when', 'time', 'timeline', 'over time', 'per week', 'weekly'],
  TOKEN_WORD: ['token', 'tokens', 'coin', 'coins'],
  QUESTION: ['what', 'which', 'where', 'how', 'is', 'are', 'can', 'does'],
  WHAT: ['what', 'whats', 'which'],
}

/** Slang and shorthand, expanded before anything else (exact words only). */
export const SLANG: Record<string, string> = {
  u: 'you', ur: 'your', r: 'are', y: 'why', pls: '', plz: '', pleas: '', please: '', thx: '', ty: '', ser: '', fren: '', bro: '', bruh: '', fam: '', ok: '', okay: '', lol: '', lmao: '', ngl: '', tbh: '', rn: 'now', asap: '', lmk: '', fr: '', srsly: '', pleaseee: '', plss: '', plox: '',
  wat: 'what', wot: 'what', wut: 'what', whats: 'whats', "what's": 'whats', wats: 'whats', whatis: 'what is', howmuch: 'how much', hw: 'how', hows: 'how', "how's": 'how',
  wen: 'when', gimme: 'give me', lemme: 'let me', wanna: 'want to', gonna: 'going to', gotta: 'got to', tryna: 'trying to', im: 'im', "i'm": 'im', "i've": 'ive', ive: 'ive', dont: 'dont', "don't": 'dont', cant: 'cant', "can't": 'cant',
  swp: 'swap', brn: 'burn', vot: 'vote', stk: 'stake', prc: 'price', swao: 'swap', compair: 'compare', compaire: 'compare', schedual: 'schedule', shedule: 'schedule', sched: 'schedule', stakin: 'staking', pfp: 'pfp',
  bal: 'balance', bals: 'balance', lb: 'leaderboard', lboard: 'leaderboard', px: 'price', gov: 'governance', addy: 'address', addr: 'address', addys: 'address', addrs: 'address',
  tx: 'tx', txn: 'tx', txns: 'txs', props: 'proposals', prop: 'proposal', stats: 'stats', statz: 'stats', info: 'info', nfts: 'nft', jpegs: 'jpeg', pfps: 'pfp', pics: 'pic',
  reffs: 'referral', refs: 'referral', reff: 'referral', referals: 'referral', referrals: 'referral', comp: 'compare', eli5: 'eli5', lp: 'lp', lps: 'lp', liq: 'liquidity',
  thru: 'through', tho: 'though', abt: 'about', bc: 'because', cuz: 'because', smth: 'something', sth: 'something', w: 'with', wo: 'without', 'w/o': 'without', 'w/': 'with', '&': 'and', n: 'and',
  mc: 'megachad', mg: 'megagooner', chad: 'megachad', gooner: 'megagooner', megachads: 'megachad',
}

/** Common words that are never typo-corrected (they would collide with vocabulary). */
export const KEEP = new Set(
  ('a an the and or but if of to in on at by for from with without into onto over under up down out off about as is are was were be been being ' +
    'i me my mine we us our you your he she they them it its this that these those there here who whom whose what which when where why how ' +
    'do does did done doing have has had having can could would should will shall may might must not no yes ' +
    'more most much many some any all each every few less least other others same such than then too very just also only ' +
    'now new old one two three four five six seven eight nine ten next last first second make made take took give gave go went come came ' +
    'see saw look want need like know think say said tell ask use used work works working get got let put set run ran ' +
    'start started whole flow thing things stuff something people money today right wrong state step steps plan sure ' +
    'name same sent send rate note mine more born turn vote votes voted bone code mode node nope fine line time wins win ' +
    'well good best better worse worst real really sure still even ever never again always maybe please thanks ' +
    'eth weth usdm usd base arb op bnb bsc avax matic megaeth mainnet ethereum arbitrum optimism polygon avalanche ' +
    'exist exists existing exact exactly exit able about above after again against almost alone along already although among ' +
    'another anyone anything anyway around away back bad because become before behind below between big both bring ' +
    'call came care case change check close cool could course cut day days did different does doing done dont down during ' +
    'early easy either else end enough every everyone everything example fact far fast feel find fine found full fun ' +
    'gone great group hand happen hard head help here high hold home hope hour house idea important inside instead into ' +
    'keep kind known large later least leave left less life light little live long lot lots low main man many matter mean ' +
    'might mind minute moment money month morning move much near nice night nothing number often okay once open order ' +
    'own part pay place point possible power pretty probably problem pull quick quite rather read ready reason rest ' +
    'room same saying seem seems several short show side simple since small soon sort sound speak special stand start ' +
    'stay still stop such sure system talk taken test than thank thanks their there these thing think those though ' +
    'thought through today together told took top toward try trying under until upon usual wait walk wanted watch way ' +
    'week went while whole why wish within word world worth yeah year yes yet young ' +
    // English words one typo from a keyword ("half" is not "halt", "save" not "safe", "shake" not "stake").
    'half halve sale male pain apple bank bath beat became belt black boot burst butter cash catch cause chair cheat clock ' +
    'coast coat cold copy corn court crown delay differ dinner field firm flower form goal gray grade grow hate hole lack ' +
    'leaf lend letter lift lost love luck lunch mile movie north outer pass plain plane plant play poor prefer pride prize ' +
    'proper protect quiet race rare relax rise save seat seek shake shell shoe shop shot sing size slow smell soap speed ' +
    'spell spite sport stage star stare thin thus touch winter snake prime prince swamp swan sway spam barn tall tale ' +
    // A relayed request ("user wants …") is not about other people.
    'user megachad megagooner mogger jester chadboard proposal proposals').split(/\s+/),
)
