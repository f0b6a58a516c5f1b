// The searches of the recall set, one per line (lines starting with # are comments).
export const RECALL_QUERIES = String.raw`
# relevant ids (comma separated)|query — what a model would pass to memory_search before answering
1|Alice cat name
4|Alice allergy food
2,111|Alice job shifts
10|Bob birthday
12|Bob kids names
13|what does Bob eat vegetarian
14,124,158|minecraft server
19|Carol dog
18|where does Carol live now
24|Carol milk coffee order
26,114|Dave keyboards
27|Dave baby due
29|Dave gluten
35|Erin pet
36|Erin spiders
38|Erin time zone
41|Frank pilot
44|Frank voice messages hearing
49|Secret Santa organiser
52|Grace climbing
116,157|Grace cat allergy
58|Heidi parrot
59|when to message Heidi morning
65|Ivan moving Berlin
69,118|Judy bakery name sourdough
72|Judy diabetic sugar
76|Mallory workplace
84|Oscar exams study reminders
90|Peggy husband Ron
94|Trent earplugs tinnitus
100|Victor pasta spaghetti
123|game night time
131|book club current book
137|tabs or spaces
140|when can we deploy
143|private messages privacy rule
201|小林 喜欢吃什么
205|小林 过敏
204|小林的狗叫什么
206|小林 考研
210|阿杰 王者荣耀 段位
212|阿杰 吃辣 火锅
213|阿杰女朋友
218|老王 高血压
219|老王孙女 考上
221|老王 京剧
224|小美的猫
226|小美男朋友 异地
233|大刘 膝盖 受伤
237|阿珍 奶茶店 招牌
241|阿珍 奶茶店 哪天休息
245|小周 实习 夜班
249|小周 晕车
254|胖虎 香菜
252|胖虎 乐高
258|婷婷 婚礼 在哪
262|婷婷 语音
265|浩哥 戒烟
268|浩哥 腰
270|小雨 打电话
272|小雨 日语 考试
278|老陈 糖尿病 血糖
277,313|老陈 普洱茶
284|阿强 二胎
287|阿强 汽修店 名字
289,314|晓雪 毕业论文
297|小吴 心理 抑郁
303|明明 手机 时间 限制
317|狼人杀 活动 时间
319|群主 管理员
326|背单词 打卡
333|聚餐 海鲜 过敏
341|机器人 维护 时间
`;
