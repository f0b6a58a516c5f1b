// English memories of the recall set, one per line (lines starting with # are comments).
export const ENGLISH_MEMORIES = String.raw`
# id|scope|subject|label|text  (scope person: subject is the user id; channel: the channel id; profile: empty)
1|person|alice|Alice|Alice has a ginger cat named Biscuit who knocks things off her desk
2|person|alice|Alice|Alice works as a nurse on night shifts at the county hospital
3|person|alice|Alice|Alice's birthday is March 14, she jokes that it is Pi Day
4|person|alice|Alice|Alice is allergic to peanuts; avoid suggesting peanut recipes
5|person|alice|Alice|Alice is learning Japanese and practises with Duolingo every morning
6|person|alice|Alice|Alice prefers tea over coffee, especially oolong
7|person|alice|Alice|Alice is saving up for a trip to Kyoto next autumn
8|person|alice|Alice|Alice plays the ukulele badly but enthusiastically
9|person|bob|Bob|Bob is a backend developer who writes Go at a fintech startup
10|person|bob|Bob|Bob's birthday is on July 2
11|person|bob|Bob|Bob supports Arsenal and gets grumpy after they lose
12|person|bob|Bob|Bob has two kids, Mia and Leo, both in primary school
13|person|bob|Bob|Bob is vegetarian since 2019
14|person|bob|Bob|Bob runs a Minecraft server for the group on weekends
15|person|bob|Bob|Bob drives an old blue Volvo estate he refuses to sell
16|person|bob|Bob|Bob wants to be reminded to stretch when he codes for hours
17|person|carol|Carol|Carol is a PhD student in marine biology studying coral bleaching
18|person|carol|Carol|Carol moved from Toronto to Lisbon in January
19|person|carol|Carol|Carol's dog is a greyhound called Pepper, adopted from a rescue
20|person|carol|Carol|Carol hates spoilers for The Expanse books
21|person|carol|Carol|Carol is training for the Lisbon half marathon in October
22|person|carol|Carol|Carol likes to be called Caz by friends
23|person|carol|Carol|Carol speaks Portuguese at an intermediate level
24|person|carol|Carol|Carol drinks oat milk lattes and is lactose intolerant
25|person|dave|Dave|Dave is a high school chemistry teacher
26|person|dave|Dave|Dave collects vintage mechanical keyboards, his favourite is an IBM Model M
27|person|dave|Dave|Dave's wife Sarah is expecting their first baby in December
28|person|dave|Dave|Dave plays bass in a garage band called The Lab Coats
29|person|dave|Dave|Dave cannot eat gluten because of coeliac disease
30|person|dave|Dave|Dave lives in Manchester and complains about the rain
31|person|dave|Dave|Dave is colour blind, red and green look alike to him
32|person|dave|Dave|Dave's birthday is November 30
33|person|erin|Erin|Erin is a freelance illustrator who draws children's books
34|person|erin|Erin|Erin uses a Wacom tablet and Procreate on an iPad
35|person|erin|Erin|Erin has a pet rabbit named Mochi
36|person|erin|Erin|Erin is afraid of spiders and asked not to be sent spider pictures
37|person|erin|Erin|Erin's favourite game is Stardew Valley, she has over 600 hours
38|person|erin|Erin|Erin is in the UTC+8 time zone, in Singapore
39|person|erin|Erin|Erin is looking for a new apartment near the MRT
40|person|erin|Erin|Erin's sister is getting married in Bali in June
41|person|frank|Frank|Frank is a retired airline pilot who flew Boeing 747s
42|person|frank|Frank|Frank grows tomatoes and chillies in his greenhouse
43|person|frank|Frank|Frank has three grandchildren
44|person|frank|Frank|Frank is hard of hearing and prefers text over voice messages
45|person|frank|Frank|Frank's favourite band is Pink Floyd
46|person|frank|Frank|Frank had knee surgery in August and is recovering
47|person|frank|Frank|Frank does the cryptic crossword in The Times every day
48|person|grace|Grace|Grace is a data scientist who works with Python and pandas
49|person|grace|Grace|Grace is organising the group's Secret Santa this year
50|person|grace|Grace|Grace is vegan and loves cooking Thai curries
51|person|grace|Grace|Grace's partner is called Tom, he is a firefighter
52|person|grace|Grace|Grace climbs indoors three times a week, bouldering grade V5
53|person|grace|Grace|Grace's birthday is January 21
54|person|grace|Grace|Grace has a fear of flying and takes trains when she can
55|person|heidi|Heidi|Heidi is from Zurich and speaks Swiss German, French and English
56|person|heidi|Heidi|Heidi is a UX designer at an insurance company
57|person|heidi|Heidi|Heidi skis every winter in Verbier
58|person|heidi|Heidi|Heidi has a parrot named Kiwi that says hello in three languages
59|person|heidi|Heidi|Heidi prefers to be messaged after 9 am, she is not a morning person
60|person|heidi|Heidi|Heidi is reading War and Peace and is halfway through
61|person|heidi|Heidi|Heidi recommends the fondue place Le Chalet to visitors
62|person|ivan|Ivan|Ivan is a security researcher who does bug bounties
63|person|ivan|Ivan|Ivan plays chess online, rated about 1900 on Lichess
64|person|ivan|Ivan|Ivan uses Arch Linux and will tell you about it
65|person|ivan|Ivan|Ivan is moving to Berlin for a new job in March
66|person|ivan|Ivan|Ivan does not drink alcohol
67|person|ivan|Ivan|Ivan's birthday is October 5
68|person|ivan|Ivan|Ivan has a black cat named Root
69|person|judy|Judy|Judy owns a small bakery that sells sourdough and cinnamon rolls
70|person|judy|Judy|Judy wakes up at 4 am for baking
71|person|judy|Judy|Judy has twins, Ava and Noah, who just started university
72|person|judy|Judy|Judy is diabetic and watches her sugar despite running a bakery
73|person|judy|Judy|Judy loves true crime podcasts
74|person|judy|Judy|Judy wants recipe ideas for a gluten free loaf for a customer
75|person|mallory|Mallory|Mallory is a lawyer specialising in employment law
76|person|mallory|Mallory|Mallory does not want her workplace mentioned in the group
77|person|mallory|Mallory|Mallory plays the violin in a community orchestra
78|person|mallory|Mallory|Mallory is planning a road trip across Iceland in July
79|person|mallory|Mallory|Mallory has a golden retriever named Sunny
80|person|mallory|Mallory|Mallory's favourite film is Spirited Away
81|person|oscar|Oscar|Oscar is a university student studying mechanical engineering
82|person|oscar|Oscar|Oscar builds FPV racing drones
83|person|oscar|Oscar|Oscar works part time at a pizza place on Fridays
84|person|oscar|Oscar|Oscar has exams at the end of May and wants study reminders
85|person|oscar|Oscar|Oscar's main in Street Fighter 6 is Ken
86|person|oscar|Oscar|Oscar is colour coordinating his room in green
87|person|peggy|Peggy|Peggy is a librarian at the city library
88|person|peggy|Peggy|Peggy runs the group's monthly book club
89|person|peggy|Peggy|Peggy knits sweaters and sells them at craft fairs
90|person|peggy|Peggy|Peggy's husband Ron passed away last year; be gentle about it
91|person|peggy|Peggy|Peggy has a tortoise named Sheldon who is 40 years old
92|person|peggy|Peggy|Peggy prefers to be called Peg
93|person|trent|Trent|Trent is a sound engineer who mixes live concerts
94|person|trent|Trent|Trent has tinnitus and wears earplugs at gigs
95|person|trent|Trent|Trent brews his own IPA beer at home
96|person|trent|Trent|Trent's birthday is August 18
97|person|trent|Trent|Trent is learning to surf in Cornwall
98|person|trent|Trent|Trent owns a vintage Fender Stratocaster from 1978
99|person|victor|Victor|Victor is a chef at an Italian restaurant
100|person|victor|Victor|Victor makes fresh pasta and hates when people break spaghetti
101|person|victor|Victor|Victor has a daughter named Lucia who is five
102|person|victor|Victor|Victor is training for his first triathlon
103|person|victor|Victor|Victor is from Naples and supports SSC Napoli
104|person|victor|Victor|Victor works late and usually chats after midnight
105|person|walter|Walter|Walter is a high school history teacher who loves the Roman Empire
106|person|walter|Walter|Walter restores old motorcycles, currently a 1972 Triumph
107|person|walter|Walter|Walter has a hearing dog named Scout
108|person|walter|Walter|Walter plays Dungeons and Dragons as the dungeon master every Thursday
109|person|walter|Walter|Walter is lactose intolerant
110|person|walter|Walter|Walter's son is in the navy, stationed in San Diego
111|person|alice|Alice|Alice switched to day shifts starting next month
112|person|bob|Bob|Bob is learning Rust in his spare time
113|person|carol|Carol|Carol's thesis defence is scheduled for next spring
114|person|dave|Dave|Dave is thinking of building a custom split keyboard
115|person|erin|Erin|Erin is taking commissions again after a break
116|person|grace|Grace|Grace is allergic to cats
117|person|ivan|Ivan|Ivan's favourite chess opening is the Sicilian Najdorf
118|person|judy|Judy|Judy's bakery is called Rise and Shine
119|person|oscar|Oscar|Oscar's drone crashed into a lake last weekend
120|person|victor|Victor|Victor's restaurant is closed on Mondays
121|channel|general|general|This group's rule: no politics or religion discussions
122|channel|general|general|The group votes on the game night game every Wednesday
123|channel|general|general|Game night is on Friday at 8 pm UTC in the voice channel
124|channel|general|general|The group's Minecraft server address is mc.example.net, whitelist via Bob
125|channel|general|general|Memes go to the memes channel, not here
126|channel|general|general|The group meetup is planned for the last Saturday of September in London
127|channel|general|general|Members take turns hosting the monthly quiz
128|channel|general|general|The group prefers English in the main chat
129|channel|general|general|The group is saving money in a shared pot for a charity run donation
130|channel|general|general|New members introduce themselves with a fun fact
131|channel|books|books|The book club is currently reading Project Hail Mary
132|channel|books|books|Book club meets on the first Sunday of every month
133|channel|books|books|Book suggestions go in the pinned spreadsheet
134|channel|books|books|The next book club vote is between Dune and The Left Hand of Darkness
135|channel|books|books|No spoilers beyond the agreed chapter in the books chat
136|channel|dev|dev|The dev channel is for code review and programming questions
137|channel|dev|dev|The dev group uses tabs, not spaces, in the shared repo
138|channel|dev|dev|Hackathon on the 12th, theme is accessibility tools
139|channel|dev|dev|The dev group's shared repository is on GitHub under the org name lab-coats
140|channel|dev|dev|Deploys to the shared server happen only on Tuesdays
141|profile|||The bot's name is Ishi and it speaks casually
142|profile|||The bot should answer in the language the user writes in
143|profile|||The bot never shares one person's private messages with others
144|profile|||The owner of the bot is Grace
145|profile|||The bot should keep answers under five sentences in group chats
146|profile|||The bot's maintenance window is Sunday 2 am UTC
147|profile|||The bot uses metric units unless asked otherwise
148|profile|||The bot should not give medical diagnoses, only suggest seeing a doctor
149|profile|||The bot's avatar is a small blue owl
150|profile|||Users can ask the bot to forget anything about them at any time
151|person|heidi|Heidi|Heidi is vegetarian but eats fish
152|person|frank|Frank|Frank's wife is called Margaret and they married in 1975
153|person|mallory|Mallory|Mallory drinks her coffee black with no sugar
154|person|trent|Trent|Trent is allergic to shellfish
155|person|peggy|Peggy|Peggy's favourite author is Ursula K. Le Guin
156|person|walter|Walter|Walter's birthday is February 29, a leap day
157|person|grace|Grace|Grace's cat allergy means she cannot visit Alice's flat
158|person|bob|Bob|Bob's Minecraft server runs on a Raspberry Pi 5
159|person|carol|Carol|Carol's favourite food is pastel de nata
160|person|erin|Erin|Erin's birthday is May 9
`;
