"""Raw query-protocol requests (form posts and GETs, as tutorials and
curl send them) answered with the XML AWS documents."""

import unittest
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

from harness import Server

NS = "{http://queue.amazonaws.com/doc/2012-11-05/}"


class QueryWire(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def request(self, path="/", form=None, method="POST"):
        data = urllib.parse.urlencode(form).encode() if form else None
        request = urllib.request.Request(self.server.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
        try:
            with urllib.request.urlopen(request) as answer:
                return answer.status, answer.headers, ET.fromstring(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, refused.headers, ET.fromstring(refused.read())

    def test_a_form_post_creates_a_queue_and_answers_the_documented_xml(self):
        status, headers, root = self.request(form={"Action": "CreateQueue", "QueueName": "raw", "Version": "2012-11-05"})
        self.assertEqual((status, headers["Content-Type"]), (200, "text/xml"))
        self.assertEqual(root.tag, NS + "CreateQueueResponse")
        url = root.find(f"{NS}CreateQueueResult/{NS}QueueUrl").text
        self.assertEqual(url, f"{self.server.url}/000000000000/raw")
        self.assertTrue(root.find(f"{NS}ResponseMetadata/{NS}RequestId").text)

    def test_a_get_to_a_queues_url_acts_on_that_queue(self):
        self.request(form={"Action": "CreateQueue", "QueueName": "by-path"})
        query = urllib.parse.urlencode({"Action": "SendMessage", "MessageBody": "hi & bye"})
        status, _, root = self.request(f"/000000000000/by-path?{query}", method="GET")
        self.assertEqual((status, root.tag), (200, NS + "SendMessageResponse"))
        status, _, root = self.request("/000000000000/by-path", {"Action": "ReceiveMessage", "AttributeName.1": "All"})
        message = root.find(f"{NS}ReceiveMessageResult/{NS}Message")
        self.assertEqual(message.find(f"{NS}Body").text, "hi & bye")
        names = [a.find(f"{NS}Name").text for a in message.findall(f"{NS}Attribute")]
        self.assertIn("ApproximateReceiveCount", names)

    def test_a_missing_queue_is_sqss_xml_error_with_its_query_code(self):
        status, _, root = self.request(form={"Action": "GetQueueUrl", "QueueName": "nowhere"})
        self.assertEqual((status, root.tag), (400, NS + "ErrorResponse"))
        error = root.find(f"{NS}Error")
        self.assertEqual(error.find(f"{NS}Type").text, "Sender")
        self.assertEqual(error.find(f"{NS}Code").text, "AWS.SimpleQueueService.NonExistentQueue")
        self.assertEqual(error.find(f"{NS}Message").text, "The specified queue does not exist for this wsdl version.")

    def test_an_unknown_action_is_refused_as_invalid_action(self):
        status, _, root = self.request(form={"Action": "FlyAway"})
        self.assertEqual(status, 400)
        self.assertEqual(root.find(f"{NS}Error/{NS}Code").text, "InvalidAction")
