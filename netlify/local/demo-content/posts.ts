/** Demo posts for a fresh local site: three published, one draft, in the brand's voice. */
export interface DemoPost {
  title: string;
  excerpt: string;
  category: "Entrepreneurship" | "Cash Flow" | "Networking" | "Mindset" | "Funding";
  readTime: number;
  published: boolean;
  /** Sanitized-style HTML, only tags the editor makes. */
  content: string;
  /** Cover image file name in ./files. */
  cover: string;
  /** The cover's alt text (issue 33): what it shows, as an owner would write it. */
  coverAlt: string;
  /** How many days ago it was written (and published, when published). */
  daysAgo: number;
}

export const demoPosts: DemoPost[] = [
  {
    title: "Your First Ten Customers Won't Come From Your Website",
    excerpt:
      "We spent four months polishing a landing page nobody visited. Then we picked up the phone. Here's the unglamorous playbook that got us our first ten paying customers.",
    category: "Entrepreneurship",
    readTime: 6,
    published: true,
    cover: "cover-first-customer.png",
    coverAlt: "Red title card in bold capitals: Entrepreneurship — Your first ten customers won't come from your website",
    daysAgo: 2,
    content: `<p>Here's the truth nobody puts in their launch thread: our beautiful landing page converted exactly zero strangers in its first four months. Not because the copy was bad. Because nobody came. A website is a shop window, and we had opened it on a street with no foot traffic.</p>
<p>The first ten customers of almost every small company are won by hand. One conversation at a time, by a founder who is slightly embarrassed to be asking. That embarrassment is the price of admission. Pay it early.</p>
<h2>Stop broadcasting, start talking</h2>
<p>We had been posting into the void and calling it marketing. What actually worked was a spreadsheet with forty names on it: people we had worked with, people who had complained publicly about the problem we solve, and friends-of-friends in the right jobs. We wrote to each of them personally. Not a sequence. A note.</p>
<p>Twenty-two replied. Eleven took a call. Four paid us that month. None of them ever saw the landing page before they bought.</p>
<h2>The playbook we'd use again</h2>
<ol>
<li><strong>Write down 40 names</strong> of people who have the problem today, not people who might have it one day.</li>
<li><strong>Send a short, specific note</strong> that names their problem and asks for 15 minutes to learn, not to pitch.</li>
<li><strong>On the call, ask what they do today</strong> and what it costs them in money or hours. Shut up and take notes.</li>
<li><strong>Offer a small paid pilot</strong> to anyone who describes the problem in their own words with real pain.</li>
<li><strong>Deliver it by hand</strong>, even if that means doing manually what the product will one day automate.</li>
</ol>
<h2>What it felt like</h2>
<p>Awkward. Every single time. We expected the awkwardness to fade after the fifth call; it didn't. What changed was that we stopped reading silence as rejection. People are busy. A second, polite note got as many replies as the first.</p>
<blockquote><p>If you can't sell it by hand to ten people, a funnel won't sell it to ten thousand. It will just fail faster and more expensively.</p></blockquote>
<p>The website matters later, when people are looking for you. Until then, go where your customers already are, and talk to them like a human. It's slower than you want and faster than anything else.</p>`,
  },
  {
    title: "Profit Is an Opinion. Cash Is a Fact.",
    excerpt:
      "Our P&L said we were profitable the month we nearly missed payroll. How a 60-day invoice, a tax bill and one big annual contract taught us to run the company on a 13-week cash forecast.",
    category: "Cash Flow",
    readTime: 7,
    published: true,
    cover: "cover-runway-math.png",
    coverAlt: "Amber title card in bold capitals: Cash Flow — Profit is an opinion. Cash is a fact.",
    daysAgo: 9,
    content: `<p>In our best month ever on paper, we came within four days of not making payroll. The accountant's report showed a healthy profit. The bank account showed something else entirely. Both were telling the truth; only one of them pays salaries.</p>
<h2>How a profitable company runs out of money</h2>
<p>It took three ordinary things landing in the same month:</p>
<ul>
<li>A big new customer on <strong>60-day payment terms</strong>. We booked the revenue in March and saw the cash in May.</li>
<li>A <strong>quarterly tax payment</strong> we knew about and had simply forgotten to plan for.</li>
<li>An <strong>annual software renewal</strong> that we had been paying monthly in our heads.</li>
</ul>
<p>None of these were surprises. Together, they were a crisis. Profit is a matter of accounting rules and timing choices; cash is whatever is in the account on Friday.</p>
<h2>The 13-week forecast</h2>
<p>Since then we run the company on one spreadsheet: a rolling 13-week cash forecast. Every Monday it takes twenty minutes to update. One row per week, with cash in on top, cash out below, and a closing balance at the bottom that we are not allowed to let fall under two months of costs.</p>
<ol>
<li>Start with the real bank balance, not the one you expect.</li>
<li>Put in cash when it <em>arrives</em>, not when you invoice.</li>
<li>Put in every bill on the day it leaves, including tax, insurance and annual renewals.</li>
<li>Compare last week's forecast with what actually happened, and write down why they differ.</li>
</ol>
<p>That last step is the one that makes you better. The first few weeks our forecast was wrong by thousands. Now it's usually within a few hundred, because we learned which customers pay late and which costs we keep forgetting.</p>
<h2>Three rules we now refuse to break</h2>
<p><strong>Invoice on the day the work is done.</strong> Every day you wait is a day of free credit you're giving away. <strong>Negotiate terms before the contract, not after.</strong> Thirty days is normal; sixty is a loan. <strong>Keep a tax account.</strong> Move a fixed share of every payment into it the day it lands.</p>
<p>Growth makes cash problems worse, not better, because you pay for the work before you're paid for it. If you're growing fast and feeling poor, you're not imagining it. Open the spreadsheet.</p>`,
  },
  {
    title: "What 47 Investor Nos Taught Us About Our Pre-Seed",
    excerpt: "Forty-seven meetings, forty-seven rejections, then a round closed in three weeks. The pitch barely changed. Everything around it did.",
    category: "Funding",
    readTime: 8,
    published: true,
    cover: "cover-pre-seed-round.png",
    coverAlt: "Slate title card in bold capitals: Funding — What 47 investor nos taught us about our pre-seed",
    daysAgo: 16,
    content: `<p>We kept a spreadsheet of every investor we pitched for our pre-seed. By the time we closed, it had 47 rows marked <em>pass</em> and five marked <em>in</em>. The deck the five said yes to was almost identical to the one the first forty-seven said no to. What changed was everything else.</p>
<h2>Most nos weren't about us</h2>
<p>When we finally went back through the rejection emails and call notes, the reasons sorted into three piles:</p>
<ul>
<li><strong>Wrong fund.</strong> Their thesis, cheque size or stage simply didn't fit. Twenty-one of the 47. We should never have been in those rooms.</li>
<li><strong>Too early for them.</strong> They wanted to see more revenue. Fair, and a real signal, but not a verdict on the idea.</li>
<li><strong>They didn't believe the market was big.</strong> This was the only pile that was about our story, and it was the smallest.</li>
</ul>
<p>Half our fundraising time had been spent pitching people who could never have said yes. That's not resilience. That's bad targeting.</p>
<h2>What we changed</h2>
<h3>We qualified investors before we met them</h3>
<p>For every name, we checked three things: do they invest at pre-seed, have they backed anything in our space in the last two years, and can we get a warm introduction from a founder they funded. No to any of them meant no meeting.</p>
<h3>We ran the round as a sprint</h3>
<p>Instead of a meeting here and there over five months, we lined up every first meeting inside two weeks. Momentum is real: investors move when they hear other investors are moving.</p>
<h3>We answered the market question in the first two minutes</h3>
<p>The one objection that was about us, we put on slide two, with the numbers built bottom-up from real customers, not a top-down slice of a giant market.</p>
<blockquote><p>A no is information, not a judgement. Sort your nos and the pattern will tell you what to fix: the list, the timing or the story.</p></blockquote>
<p>The round closed three weeks after the sprint began. The product didn't change in that time. Our process did.</p>`,
  },
  {
    title: "The Fear Doesn't Leave. You Just Get Used to Working Next to It.",
    excerpt: "A draft on founder anxiety, the 3 a.m. spreadsheet checks, and the small routines that keep us functional when the numbers are bad.",
    category: "Mindset",
    readTime: 5,
    published: false,
    cover: "cover-founder-fear.png",
    coverAlt: "Red title card in bold capitals: Mindset — The fear doesn't leave. You just get used to working next to it.",
    daysAgo: 1,
    content: `<p>Draft. Nobody tells you that the fear is permanent. You imagine a point where the company is safe and you can relax. There isn't one. There are just bigger numbers to be afraid of.</p>
<h2>What actually helps</h2>
<ul>
<li>Checking the numbers once a day, at a set time, instead of every hour.</li>
<li>Writing the worst case down, with what we'd do about it.</li>
<li>Talking to one other founder every week who is not trying to impress us.</li>
</ul>
<h2>To write</h2>
<p>The night we nearly shut down. What we told the team. What we didn't, and whether that was right.</p>`,
  },
];
