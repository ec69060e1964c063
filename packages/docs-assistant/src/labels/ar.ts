/**
 * Arabic labels (the `labelsAr` export of the `docs-assistant/labels/ar` entry, with `dir="rtl"` on the
 * widget or the page): every string of the widget, and the layout's check for right to left.
 */
import type { Labels } from './types.js';

/** "1 نتيجة" / "2 نتيجتان" / "3–10 نتائج" / "11+ نتيجة": the count with its noun's form. */
const counted = (count: number, one: string, two: string, few: string, many: string) =>
  count === 1
    ? `${one} واحدة`
    : count === 2
      ? two
      : count >= 3 && count <= 10
        ? `${count} ${few}`
        : `${count} ${many}`;

export const labelsAr: Labels = {
  launcher: 'اسأل الذكاء الاصطناعي',
  title: 'اسأل التوثيق',
  close: 'إغلاق',
  inputPlaceholder: 'اكتب سؤالاً عن التوثيق…',
  inputLabel: 'سؤالك',
  send: 'إرسال',
  stop: 'إيقاف',
  retry: 'إعادة المحاولة',
  copy: 'نسخ الإجابة',
  copied: 'تم النسخ',
  copyCode: 'نسخ الشيفرة',
  newConversation: 'محادثة جديدة',
  starterQuestionsHeading: 'جرّب أن تسأل',
  askAi: 'اسأل الذكاء الاصطناعي',
  removeContext: (value) => `إزالة السياق: ${value.length > 40 ? `${value.slice(0, 40)}…` : value}`,
  contextTruncated: 'مختصر',
  sourcesHeading: 'المصادر',
  suggestionsHeading: 'صفحات ذات صلة',
  reasoning: 'التفكير',
  reasoningStreaming: 'يفكّر…',
  searchingDocs: (query) => `يبحث في التوثيق عن «${query}»…`,
  searchedDocs: (query) => `بحث في التوثيق عن «${query}»`,
  toolCalling: (name) => `يستدعي ${name}…`,
  toolCalled: (name) => `استدعى ${name}`,
  thinking: 'يفكّر…',
  answerReady: 'الإجابة جاهزة',
  errorAuth: 'رُفض مفتاح المساعد. تحقّق من المفتاح المضبوط لهذا الموقع.',
  errorRateLimit: (seconds) =>
    seconds
      ? `طلبات كثيرة جدًا. أعد المحاولة بعد ${seconds} ثانية.`
      : 'طلبات كثيرة جدًا. أعد المحاولة بعد قليل.',
  errorNetwork: 'تعذّر الوصول إلى المساعد. تحقّق من اتصالك وأعد المحاولة.',
  errorStream: 'انقطعت الإجابة. أعد المحاولة للحصول على بقيتها.',
  errorRequest: 'لم يتمكّن المساعد من قبول هذا الطلب.',
  errorConfig: 'المساعد غير مضبوط على هذا الموقع كما ينبغي.',
  unavailable: 'مساعد الذكاء الاصطناعي غير متاح في هذا النشر.',
  you: 'أنت',
  assistant: 'المساعد',
  redacted: '[محجوب]',
  searchResultCount: (count) => counted(count, 'نتيجة', 'نتيجتان', 'نتائج', 'نتيجة'),
  imageAlt: (mimeType) => `صورة من المساعد (${mimeType})`,
  downloadFile: (mimeType) => `تنزيل الملف (${mimeType})`,
  copyFailed: 'حُدّدت الشيفرة: اضغط Ctrl+C (أو ⌘C على ماك) لنسخها',
  loading: 'جارٍ تحميل المساعد…',
  askAiAboutCode: 'اسأل الذكاء الاصطناعي عن هذه الشيفرة',
  codeBlock: 'شيفرة',
  codeBlockAnnounced: '(مقطع شيفرة)',
  panelUnavailable: 'المساعد غير متاح، أعد المحاولة',
  panelCrashed: 'حدث خطأ في المساعد.',
  feedbackPrompt: 'هل كانت هذه الإجابة مفيدة؟',
  feedbackUp: 'مفيدة',
  feedbackDown: 'غير مفيدة',
  feedbackComment: 'أخبرنا بالمزيد (اختياري)',
  feedbackSend: 'إرسال الملاحظات',
  feedbackSkip: 'تخطٍّ',
  feedbackThanks: 'شكرًا على ملاحظاتك.',
  feedbackFailed: 'تعذّر إرسال ملاحظاتك.',
  contactSupport: 'التواصل مع الدعم',
  supportSubject: 'سؤال عن التوثيق',
  supportNoAnswer: 'قد لا يغطي التوثيق هذا. يمكن لشخص أن يساعدك.',
  supportAfterVote: 'نأسف لأن هذا لم يساعد. يمكن لشخص أن يتابع معك.',
  share: 'مشاركة',
  shareLink: 'رابط هذه المحادثة (للقراءة فقط)',
  shareCopied: 'تم نسخ الرابط',
  shareCopy: 'نسخ الرابط',
  stopSharing: 'إيقاف المشاركة',
  shareStopped: 'أُوقفت المشاركة: لم يعد الرابط يفتح هذه المحادثة.',
  shareFailed: 'فشلت المشاركة.',
  sharedTitle: 'محادثة مشتركة',
  sharedNotice: 'للقراءة فقط. المتابعة تبدأ محادثة جديدة خاصة بك.',
  sharedContinue: 'المتابعة كمحادثة جديدة',
  sharedClose: 'إغلاق',
  sharedNotFound: 'هذه المحادثة المشتركة لم تعد متاحة.',
  sharedLoading: 'جارٍ تحميل المحادثة المشتركة…',
  history: 'السجل',
  historyHeading: 'المحادثات السابقة',
  historySearch: 'البحث في المحادثات السابقة',
  historyEmpty: 'لا محادثات سابقة بعد. تُحفظ أسئلتك هنا على هذا الجهاز.',
  historyNoMatch: (query) => `لا توجد محادثة تذكر «${query}».`,
  historyCount: (count) => counted(count, 'محادثة', 'محادثتان', 'محادثات', 'محادثة'),
  historyMessages: (count) => counted(count, 'رسالة', 'رسالتان', 'رسائل', 'رسالة'),
  historyUntitled: 'محادثة بلا عنوان',
  historyCurrent: 'المعروضة الآن',
  historyDelete: (title) => `حذف «${title}»`,
  historyDeleteAll: 'حذف الكل',
  historyConfirmDeleteAll: (count) =>
    `حذف ${counted(count, 'محادثة', 'محادثتين', 'محادثات', 'محادثة')} من هذا الجهاز؟ لا يمكن التراجع عن ذلك.`,
  historyCancel: 'إلغاء',
  historyDeleted: 'حُذفت.',
  historyBack: 'العودة إلى المحادثة',
  copyConversation: 'نسخ المحادثة',
  conversationCopied: 'تم نسخ المحادثة',
  externalImage: (alt) => (alt ? `${alt} (صورة خارجية)` : 'صورة خارجية'),
  markdownLimit: (reason) =>
    reason === 'depth'
      ? 'بقية هذه الإجابة متداخلة أكثر من أن تُنسَّق؛ تظهر نصًا عاديًا.'
      : 'بقية هذه الإجابة أطول من أن تُنسَّق؛ تظهر نصًا عاديًا.',
  searchNoResults: (query) => `لا نتائج لـ«${query}»`,
  searchFailed: 'فشل البحث في التوثيق.',
  searchResultsLabel: 'نتائج البحث',
  askAiAbout: (query) => `اسأل الذكاء الاصطناعي: «${query}»`,
  searchView: 'البحث في التوثيق',
  previewBack: 'رجوع',
  previewOpen: 'فتح الصفحة',
  previewLoading: 'جارٍ تحميل الصفحة…',
  previewNotFound: 'هذه الصفحة ليست ضمن التوثيق الذي يعرفه المساعد.',
  attachFiles: 'إرفاق ملفات',
  attachmentsLabel: 'الملفات المرفقة',
  removeAttachment: (name) => `إزالة ${name}`,
  attachmentTooLarge: (name, limit) => `لم يُرفق «${name}»: الحد الأقصى لحجم الملف ${limit}.`,
  attachmentTooMany: (name, limit) => `لم يُرفق «${name}»: ${limit} ملفات على الأكثر لكل سؤال.`,
  attachmentBadType: (name) =>
    `لم يُرفق «${name}»: يمكن إرفاق الصور (PNG وJPEG وGIF وWebP) وملفات النصوص أو الشيفرة فقط.`,
  showEarlierMessages: 'عرض الرسائل السابقة',
  earlierMessagesShown: (count) =>
    `عُرضت ${counted(count, 'رسالة سابقة', 'رسالتان سابقتان', 'رسائل سابقة', 'رسالة سابقة')}`,
  moreActions: 'إجراءات أخرى',
  stopped: 'أُوقفت',
  withdrawConsent: 'سحب الموافقة',
  sentContext: 'أُرسل مع السؤال',
};
